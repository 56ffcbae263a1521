-- Room ownership in a cluster (issue 17): the node that plays a match holds
-- its lease and renews it; a node that takes a room over bumps `epoch`, and
-- every append of a fenced room checks its epoch in the same transaction,
-- so a node that lost the lease can never write again.
CREATE TABLE leases (
    match_id   UUID PRIMARY KEY REFERENCES matches (id),
    node_id    TEXT NOT NULL,
    -- Where players reach the node (its WebSocket URL): other nodes send them there.
    node_url   TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
