package table

import (
	"errors"

	"github.com/gopoly/gopoly/session"
)

// Code is the kind of a failure, which each front end maps to its own
// status (an HTTP status, an MCP error, an exit code) in one function.
type Code int

// Codes of failures.
const (
	CodeInternal  Code = iota // the store or the engine failed: not the caller's fault
	CodeNotFound              // no such game (or config)
	CodeBadSetup              // a new game's seats, rules or seed are wrong
	CodeBadInput              // an argument out of range or malformed
	CodeForbidden             // the caller's token does not allow it
	CodeRefused               // the game refused the answer or the request: it changed nothing
	CodeConflict              // the game is not in the state the request needs (not paced, over)
)

var codeNames = [...]string{"internal", "not_found", "bad_setup", "bad_input", "forbidden", "refused", "conflict"}

func (c Code) String() string { return codeNames[c] }

// Error is a failure of the table service: its Code, and the error
// saying what went wrong; Refusal, for a refusal of the game, carries the
// stable code and the legal options of the pending decision.
type Error struct {
	Code    Code
	Err     error
	Refusal *session.Refused
	// Reason is the stable word clients see ("bad_speed"); "": the
	// Code's name.
	Reason string
}

// Name is the stable word clients see for e: its Reason, else its Code's
// name.
func (e *Error) Name() string {
	if e.Reason != "" {
		return e.Reason
	}
	return e.Code.String()
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Classify returns err as an *Error: one already, or a session's error
// classified (a game not found, a bad setup, a refusal by seat token or
// by the rules), anything else internal. Nil stays nil.
func Classify(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ref *session.Refused
	var se *session.SetupError
	switch {
	case errors.Is(err, session.ErrNotFound):
		return &Error{Code: CodeNotFound, Err: err}
	case errors.As(err, &se):
		return &Error{Code: CodeBadSetup, Err: err}
	case errors.As(err, &ref) && (ref.Code == session.CodeBadToken || ref.Code == session.CodeNoSeat):
		return &Error{Code: CodeForbidden, Err: err, Refusal: ref}
	case errors.As(err, &ref):
		return &Error{Code: CodeRefused, Err: err, Refusal: ref}
	}
	return &Error{Code: CodeInternal, Err: err}
}
