-- A campaign's turn timer (issue 13), and each of its matches' copy: kept
-- with the match so a room that reloads after a restart times turns the same.
ALTER TABLE campaigns ADD COLUMN turn_timer_ms BIGINT;
ALTER TABLE matches ADD COLUMN turn_timer_ms BIGINT;
