-- The first schema of the session store, portable between SQLite and
-- PostgreSQL. Times are nanoseconds since the Unix epoch (BIGINT): the
-- zero time.Time is the smallest BIGINT. JSON is kept as text, because the
-- store never looks inside it and SQLite has no JSON type.
-- "over", "by" and "at" are quoted: they are keywords in one dialect or
-- the other.

-- +goose Up
CREATE TABLE sessions (
    id       TEXT    NOT NULL PRIMARY KEY,
    version  INTEGER NOT NULL,
    setup    TEXT,
    tokens   TEXT,
    parent   TEXT    NOT NULL DEFAULT '',
    created  BIGINT  NOT NULL,
    updated  BIGINT  NOT NULL,
    entries  INTEGER NOT NULL,
    digest   TEXT    NOT NULL DEFAULT '',
    turn     INTEGER NOT NULL DEFAULT 0,
    round    INTEGER NOT NULL DEFAULT 0,
    "over"   BOOLEAN NOT NULL DEFAULT FALSE,
    winner   INTEGER NOT NULL DEFAULT -1,
    waiting  INTEGER NOT NULL DEFAULT -1,
    summary  TEXT    NOT NULL DEFAULT ''
);

-- List reads sessions newest first.
CREATE INDEX sessions_updated ON sessions (updated DESC, created DESC, id);

CREATE TABLE entries (
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT,
    speech     TEXT    NOT NULL DEFAULT '',
    thought    TEXT    NOT NULL DEFAULT '',
    "by"       TEXT    NOT NULL DEFAULT '',
    "at"       BIGINT  NOT NULL,
    PRIMARY KEY (session_id, seq)
);

CREATE TABLE configs (
    id      TEXT   NOT NULL PRIMARY KEY,
    name    TEXT   NOT NULL DEFAULT '',
    yaml    TEXT   NOT NULL,
    created BIGINT NOT NULL
);

-- +goose Down
DROP TABLE entries;
DROP TABLE sessions;
DROP TABLE configs;
