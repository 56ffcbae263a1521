-- Players' names and seats on another device (issue 44).
--
-- A seat's display name, chosen by its player when creating or joining:
-- public (every reader of the match sees it) and fixed once set. Kept
-- apart from `matches` and the action log, so no state hash sees it.
CREATE TABLE seat_names (
    match_id UUID NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);

-- More tokens of a match's seat: one per browser a seat was brought to by
-- a transfer code (the first device keeps the token in `seats`).
CREATE TABLE seat_tokens (
    -- SHA-256 (hex) of the token; the token itself is never stored.
    token_hash TEXT PRIMARY KEY,
    match_id   UUID NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL
);

-- One-time transfer codes: short-lived, single use, kept hashed.
CREATE TABLE seat_transfers (
    code_hash  TEXT PRIMARY KEY,
    match_id   UUID NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    -- Milliseconds since the Unix epoch, by the server's clock.
    expires_ms BIGINT NOT NULL,
    used       BOOLEAN NOT NULL DEFAULT FALSE
);
