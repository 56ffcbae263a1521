-- Athlas store, Postgres flavour. The action log is append-only: rows of
-- `actions` are inserted, never updated or deleted.

CREATE TABLE campaigns (
    id          UUID PRIMARY KEY,
    game        TEXT NOT NULL,
    -- The campaign's own record: base options, its games and their results.
    record      JSONB NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE matches (
    id            UUID PRIMARY KEY,
    game          TEXT NOT NULL,
    options       JSONB NOT NULL,
    -- The engine seed, drawn by the server; never sent to a client before the end.
    seed          BIGINT NOT NULL,
    rules_version INTEGER NOT NULL,
    -- open (seats free), active (all seats taken), finished.
    status        TEXT NOT NULL,
    join_code     TEXT NOT NULL UNIQUE,
    -- Live matches time their response windows; correspondence matches do not.
    live          BOOLEAN NOT NULL DEFAULT FALSE,
    seats         INTEGER NOT NULL,
    -- Number of accepted actions: the sequence number of the latest one.
    seq           BIGINT NOT NULL DEFAULT 0,
    -- The engine's outcome once finished (JSON), else NULL.
    outcome       JSONB,
    campaign_id   UUID REFERENCES campaigns (id),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX matches_status ON matches (status, created_at);

CREATE TABLE seats (
    match_id    UUID NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL,
    -- SHA-256 (hex) of the seat token; the token itself is never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE actions (
    match_id    UUID NOT NULL REFERENCES matches (id),
    seq         BIGINT NOT NULL,
    seat        INTEGER NOT NULL,
    action      JSONB NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE snapshots (
    match_id    UUID NOT NULL REFERENCES matches (id),
    seq         BIGINT NOT NULL,
    state       JSONB NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE commitments (
    match_id    UUID NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL,
    -- hex SHA-256(salt || canonical JSON of the secret)
    hash        TEXT NOT NULL,
    -- hex; revealed to clients only when the match has finished
    salt        TEXT NOT NULL,
    seq         BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
