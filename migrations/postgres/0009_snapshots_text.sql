-- Snapshots as text compressed with LZ4, not JSONB compressed with pglz
-- (docs/PERFORMANCE.md, 2026-11-28, afternoon). A duel's snapshot is about
-- 19 KB of JSON, written every few dozen actions, and only ever read back
-- whole by the server, which parses it itself: Postgres parsing it into
-- JSONB (every number a numeric, every object's keys sorted) and pglz
-- compressing it were a quarter of Postgres's CPU under load. SQLite has
-- always kept them as text. Rewrites the table once, at the upgrade.
ALTER TABLE snapshots ALTER COLUMN state TYPE TEXT USING state::text;

-- LZ4 is several times faster than pglz and here also smaller (4.2 KB
-- against 5.2 KB a duel snapshot). A Postgres built without LZ4 (it is in
-- the official images and Debian's) keeps pglz, with a notice.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE snapshots ALTER COLUMN state SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'snapshots stay compressed with pglz: %', SQLERRM;
END
$$;
