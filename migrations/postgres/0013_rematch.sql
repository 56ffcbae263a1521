-- Rematches (issue 44): a finished match's rematch, offered by one seat and
-- accepted by the other. One row a finished match: a second is refused.
CREATE TABLE rematches (
    match_id   UUID PRIMARY KEY REFERENCES matches (id),
    offered_by INTEGER NOT NULL,
    -- SHA-256 of the offering player's seat token in the rematch, made
    -- when it offered (the offer's answer gave that player the token).
    token_hash TEXT NOT NULL,
    -- The rematch, once accepted.
    new_match  UUID REFERENCES matches (id)
);
