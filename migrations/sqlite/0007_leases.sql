-- Room ownership in a cluster (issue 17). A cluster runs on Postgres only;
-- the table is here so both stores have the same shape.
CREATE TABLE leases (
    match_id   TEXT PRIMARY KEY REFERENCES matches (id),
    node_id    TEXT NOT NULL,
    -- Where players reach the node (its WebSocket URL): other nodes send them there.
    node_url   TEXT NOT NULL,
    epoch      INTEGER NOT NULL,
    expires_at TEXT NOT NULL
);
