-- Where the other nodes reach a lease's node (`--peer-url`), to relay a
-- match's sockets to it. A cluster runs on Postgres only; the column is
-- here so both stores have the same shape.
ALTER TABLE leases ADD COLUMN peer_url TEXT;
