package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Store keeps sessions durably: each session's record (setup, seat
// tokens, what a listing shows) and its append-only log of answers, and
// saved rules configs. The session package owns the interface; the store
// package implements it on SQLite (the embedded default) and PostgreSQL.
//
// A store is shared by the goroutines of one process and may be shared by
// several processes (one SQLite data directory, one database): Append is
// the point where they meet, and it refuses, with ErrConflict, an append
// that does not continue the log as stored.
type Store interface {
	// Create stores a new session with its first entries (a fork starts
	// with the log it was forked from). It fails with ErrExists if the id
	// is taken.
	Create(ctx context.Context, rec Record, log []Entry) error
	// Append adds entries to the log of session id, which must hold
	// exactly from entries (else ErrConflict, and nothing is written), and
	// replaces the record's Status in the same transaction. It returns only
	// once the entries are durable.
	Append(ctx context.Context, id string, from int, entries []Entry, st Status) error
	// Load returns a session's record and its whole log, in order.
	Load(ctx context.Context, id string) (Record, []Entry, error)
	// List returns the records of all sessions, newest first (Updated),
	// without their logs.
	List(ctx context.Context) ([]Record, error)
	// Delete removes a session and its log (ErrNotFound if there is none).
	Delete(ctx context.Context, id string) error

	// SaveConfig stores a rules config (validated YAML) under its id,
	// replacing one of the same id.
	SaveConfig(ctx context.Context, c Config) error
	// Config returns a saved config (ErrNotFound if there is none).
	Config(ctx context.Context, id string) (Config, error)
	// Configs lists the saved configs by id.
	Configs(ctx context.Context) ([]Config, error)
	// DeleteConfig removes a saved config (ErrNotFound if there is none).
	DeleteConfig(ctx context.Context, id string) error

	// Close releases the store.
	Close() error
}

// Errors of a Store. Implementations wrap them with particulars; callers
// test them with errors.Is.
var (
	ErrNotFound = errors.New("session: not found")
	ErrExists   = errors.New("session: already exists")
	// ErrConflict is an append that does not continue the stored log:
	// another process (or another handle) has answered in the meantime.
	ErrConflict = errors.New("session: the log was changed elsewhere")
)

// Record is what a store keeps of a session besides its log.
type Record struct {
	ID      string
	Version int             // the format version of Setup and the log (FormatVersion)
	Setup   json.RawMessage // the Setup as JSON
	Tokens  json.RawMessage // the seats' secret tokens as JSON (never exported)
	Parent  string          // the session it was forked from, if any
	Created time.Time
	Status  Status
}

// DecodeSetup reads the record's setup.
func (r Record) DecodeSetup() (Setup, error) {
	var setup Setup
	if err := json.Unmarshal(r.Setup, &setup); err != nil {
		return Setup{}, fmt.Errorf("session %s: setup: %w", r.ID, err)
	}
	return setup, nil
}

// Status is the part of a session record that changes as it is played,
// written with every append so that a listing needs no replay.
type Status struct {
	Updated time.Time
	Entries int    // the length of the log
	Digest  string // digest of the events of the play so far (see Digest)
	Turn    int    // turns started
	Round   int
	Over    bool
	Winner  int    // the winning seat when over; -1 for a tie or none
	Waiting int    // the seat the game waits for; -1 when none
	Summary string // one line for people, such as "round 3: Waiting for Ann (human) to decide whether to buy Boardwalk"
}

// Entry is one answer in a session's log.
type Entry struct {
	Seat    int
	Action  json.RawMessage // the action in the wire format
	Speech  string          // said at the table with the action
	Thought string          // private to its author and the research view
	By      string          // who answered: "bot:NAME", "human", ...
	At      time.Time
	// Research is how the answer was made (agent.Answer.Research: an LLM
	// seat's prompts, raw responses, tokens and costs), kept for the
	// research log and handed back to the player on replay; nil for most.
	Research json.RawMessage
}

// Config is a saved rules config: YAML overlaid on the default rules.
type Config struct {
	ID      string
	Name    string
	YAML    string
	Created time.Time
}

// Feed is a store whose changes other processes hear of (PostgreSQL's
// LISTEN/NOTIFY): every committed Create and Append is announced to every
// process that follows the store, so that a game played in one process
// is seen live in another. A store without one (SQLite) serves one
// process's front ends, which hear of their own changes directly.
type Feed interface {
	// Follow calls f with every change committed to the store, by any
	// process (this one included), until ctx ends; it returns ctx's error
	// then, or an error that ends the feed for good. A change with an
	// empty ID says that changes may have been missed (the connection was
	// lost and made again): every session may have changed.
	Follow(ctx context.Context, f func(Change)) error
	// LoadFrom is Load with the log from entry from on: what a process
	// that holds the first from entries needs to catch up.
	LoadFrom(ctx context.Context, id string, from int) (Record, []Entry, error)
	// Entries is the length of session id's stored log: one look, before
	// a seat is asked or answers, that this process is not behind.
	Entries(ctx context.Context, id string) (int, error)
}

// Change is one committed change of a stored session: its log now holds
// Entries answers.
type Change struct {
	ID      string
	Entries int
}

// Leases are named leases kept in a store, which processes sharing it
// take in turn: one process at a time drives a game's bots.
type Leases interface {
	// Lease takes or renews the lease name for owner until ttl from now
	// (by the store's clock, so that the processes' clocks need not
	// agree). It reports false, and changes nothing, while another owner
	// holds it unexpired.
	Lease(ctx context.Context, name, owner string, ttl time.Duration) (bool, error)
	// Release gives up owner's lease name at once (nothing if owner does
	// not hold it).
	Release(ctx context.Context, name, owner string) error
}

// Secrets are secrets kept in a store, the same for every process that
// shares it: what a front end signs with, so that any of them accepts
// what another issued.
type Secrets interface {
	// Secret returns the secret name, made (32 random bytes) by the first
	// process to ask.
	Secret(ctx context.Context, name string) ([]byte, error)
}

// Paces keep how each game of bots is paced, for every process sharing a
// store: a request to pause or speed up a game may reach any of them,
// and the one that drives it plays as asked.
type Paces interface {
	// SetPace changes the pace name (nil: kept; a new pace starts at 1×,
	// playing) and counts one more step if step, and returns it.
	SetPace(ctx context.Context, name string, speed *float64, paused *bool, step bool) (Paced, error)
	// Pace returns the pace name; false if none was ever set.
	Pace(ctx context.Context, name string) (Paced, bool, error)
}

// Paced is a pace as a store keeps it.
type Paced struct {
	Speed  float64
	Paused bool
	Steps  int64 // single steps asked since the pace was first set
}
