-- Web Push (issue 44): the server's VAPID key pair, made on first need and
-- shared by every node of a cluster, and the push subscriptions each seat
-- of a match opted into ("it is your turn" while its page is closed).
CREATE TABLE push_keys (
    -- One row: the key in use.
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    -- The P-256 private scalar, base64url without padding (a secret).
    private_key TEXT NOT NULL,
    -- Milliseconds since the Unix epoch, by the server's clock.
    created_ms  BIGINT NOT NULL
);

CREATE TABLE push_subscriptions (
    match_id   UUID NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    -- The push service's URL for one browser (RFC 8030).
    endpoint   TEXT NOT NULL,
    -- The browser's ECDH public key and auth secret (RFC 8291), base64url.
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat, endpoint)
);
-- A push service that says an endpoint is gone (404, 410): every row of it goes.
CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);
