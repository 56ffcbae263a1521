-- The hash of the engine state after each record (issue 16): `athlas-server
-- audit` replays a log and names the first record whose state differs.
-- NULL for records written before this column existed.
ALTER TABLE actions ADD COLUMN state_hash TEXT;
