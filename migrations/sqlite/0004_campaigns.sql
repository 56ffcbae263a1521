-- Campaigns as records of their own, for every game (issue 13).
--
-- The old `campaigns` table held one JSON record per duel campaign, written
-- in two places. The duel campaign API it served had no released users, so
-- its rows are not migrated: they are dropped, and their matches unlinked
-- (each stays a plain match, playable and watchable with its own seat
-- tokens).
UPDATE matches SET campaign_id = NULL WHERE campaign_id IS NOT NULL;
-- SQLite keeps the foreign key of matches.campaign_id by table name: it
-- points at the new table below.
DROP TABLE campaigns;

CREATE TABLE campaigns (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    seats         INTEGER NOT NULL,
    -- Friends take a seat with it: POST /api/campaigns/join/{join_code}.
    join_code     TEXT NOT NULL UNIQUE,
    -- The game's campaign state between matches (its `Campaign::Saved`,
    -- which carries its own shape version).
    saved         TEXT NOT NULL,
    -- Bumped by every write of the row (saved state, current match): a
    -- write names the version it read and fails if another came first.
    version       INTEGER NOT NULL DEFAULT 0,
    -- The latest match of the campaign (being played, or finished and
    -- waiting for the next); NULL before the first.
    current_match TEXT REFERENCES matches (id),
    live          BOOLEAN NOT NULL DEFAULT FALSE,
    private       BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- A campaign seat's token is valid for every match of the campaign.
CREATE TABLE campaign_seats (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id),
    seat        INTEGER NOT NULL,
    -- SHA-256 (hex) of the seat token; the token itself is never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    PRIMARY KEY (campaign_id, seat)
);

-- A campaign match's place in its campaign: 1, 2, ...
ALTER TABLE matches ADD COLUMN ordinal INTEGER;
CREATE UNIQUE INDEX matches_campaign_ordinal ON matches (campaign_id, ordinal);
-- The engine's status after the latest action (whose move it is), written
-- with it: the lobby shows where a match stands without loading it.
ALTER TABLE matches ADD COLUMN standing TEXT;
