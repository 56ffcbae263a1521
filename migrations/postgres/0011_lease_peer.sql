-- Where the other nodes reach a lease's node (`--peer-url`), to relay a
-- match's sockets to it; NULL: the players' URL (`node_url`) as before.
ALTER TABLE leases ADD COLUMN peer_url TEXT;
