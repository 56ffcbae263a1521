-- The action log without its foreign key to `matches` (docs/PERFORMANCE.md,
-- 2026-11-28, afternoon): Postgres checked it with a trigger and a row lock
-- on the match for every action row, about a fifth of its CPU per action.
-- The guarantee stays: an append moves the match's seq in the same
-- transaction and is refused whole unless every match it names exists at
-- the seq just before (store/records.rs, `seq_moves_sql`), and matches are
-- never deleted. The store's contract test appends to a match that was never
-- created and finds nothing written.
ALTER TABLE actions DROP CONSTRAINT IF EXISTS actions_match_id_fkey;
