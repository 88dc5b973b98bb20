-- What the processes sharing a store share besides the sessions: leases
-- (which process drives a game's bots, until when by the database's
-- clock, in nanoseconds since the Unix epoch), paces (how fast a game of
-- bots is played, asked of any process; steps counts the single steps
-- ever asked) and secrets (what the front ends sign with, so that any
-- process accepts what another issued; hex).

-- +goose Up
CREATE TABLE leases (
    name    TEXT   NOT NULL PRIMARY KEY,
    owner   TEXT   NOT NULL,
    expires BIGINT NOT NULL
);

CREATE TABLE paces (
    name   TEXT             NOT NULL PRIMARY KEY,
    speed  DOUBLE PRECISION NOT NULL,
    paused BOOLEAN          NOT NULL,
    steps  BIGINT           NOT NULL
);

CREATE TABLE secrets (
    name  TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE secrets;
DROP TABLE paces;
DROP TABLE leases;
