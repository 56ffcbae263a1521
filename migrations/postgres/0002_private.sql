-- Private matches: joinable by their code and watchable by id, but never
-- listed by GET /api/matches.
ALTER TABLE matches ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
