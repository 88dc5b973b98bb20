package wire

import (
	"errors"

	"github.com/gopoly/gopoly/monopoly"
)

// Codes of refusals that are not rules of the game: the engine's own
// codes (monopoly.Refusal's String, such as "uneven_building",
// "game_over" and "no_dice") name the rest.
const (
	CodeBadAction = "bad_action" // the input is not an action (a *DecodeError)
	CodeError     = "error"      // anything else
)

// Refusal is why an answer was turned down, for clients: a stable code,
// a message for people, and the legal options of the seat's pending
// decision when it has one, so that a client can answer again at once.
type Refusal struct {
	Code    string   `json:"code"`              // stable, snake_case
	Message string   `json:"message"`           // for people: the rule and its particulars
	Options *Options `json:"options,omitempty"` // the seat's legal answers, when it decides now
}

// NewRefusal describes err, the failure of an answer from v's seat: a
// *monopoly.RuleError by its code and the rule with its particulars;
// monopoly.ErrGameOver as "game_over", monopoly.ErrNoDice as "no_dice";
// a *DecodeError as "bad_action"; anything else as "error". Options are
// attached when v's seat decides now.
func NewRefusal(err error, v monopoly.View) Refusal {
	var re *monopoly.RuleError
	var de *DecodeError
	var out Refusal
	switch {
	case err == nil:
		return Refusal{Code: CodeError, Message: "no error"}
	case errors.As(err, &re):
		out = Refusal{Code: re.Code.String(), Message: re.Rule}
	case errors.Is(err, monopoly.ErrGameOver):
		return Refusal{Code: monopoly.RefusalGameOver.String(), Message: monopoly.RefusalGameOver.Rule()}
	case errors.Is(err, monopoly.ErrNoDice):
		return Refusal{Code: monopoly.RefusalNoDice.String(), Message: monopoly.RefusalNoDice.Rule()}
	case errors.As(err, &de):
		out = Refusal{Code: CodeBadAction, Message: de.Error()}
	default:
		out = Refusal{Code: CodeError, Message: err.Error()}
	}
	if d := v.Pending(); d.Kind != monopoly.DecisionNone && d.Player == v.Me() {
		o := NewOptions(v)
		out.Options = &o
	}
	return out
}
