-- Snapshots compressed with LZ4, not Postgres's default pglz (docs/
-- PERFORMANCE.md, 2026-11-28, afternoon): a duel's snapshot is about 19 KB
-- of JSON, written every few dozen actions, and pglz spent 15 % of Postgres's
-- CPU under load compressing them; LZ4 is several times faster and here
-- also smaller (4.2 KB against 5.2 KB). Only new values are affected: stored
-- snapshots keep pglz, and Postgres reads both. A Postgres built without
-- LZ4 (it is in the official images and Debian's) keeps pglz, with a notice.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE snapshots ALTER COLUMN state SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'snapshots stay compressed with pglz: %', SQLERRM;
END
$$;
