-- Table talk (issue 42): a match's chat, the party's and its spectators',
-- kept with the match. Lines are inserted, never changed.
CREATE TABLE chat (
    match_id UUID NOT NULL REFERENCES matches (id),
    n        BIGINT NOT NULL,
    channel  TEXT NOT NULL,
    seat     INTEGER,
    text     TEXT NOT NULL,
    -- Milliseconds since the Unix epoch, by the server's clock.
    at_ms    BIGINT NOT NULL,
    PRIMARY KEY (match_id, n)
);
