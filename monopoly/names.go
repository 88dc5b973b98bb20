package monopoly

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The stable names of the engine's enumerations as text, so that JSON,
// YAML and every client (wire format, logs, prompts) speak the same
// snake_case words as String. Unknown values and names are errors rather
// than "DecisionKind(9)": text written must read back.

// names is the table of an enumeration's names, by value, with the name
// of its type for the values that have none.
type names[K ~uint8] struct {
	typ  string
	list []string
}

// of returns k's name, or "Type(k)" for a value with no name: String's
// form, which says what went wrong rather than failing.
func (n names[K]) of(k K) string {
	if int(k) < len(n.list) {
		return n.list[k]
	}
	return fmt.Sprintf("%s(%d)", n.typ, int(k))
}

// text returns k's name, or an error naming the type for a value with no
// name: MarshalText's form.
func (n names[K]) text(k K) ([]byte, error) {
	if int(k) >= len(n.list) {
		return nil, fmt.Errorf("monopoly: %s %d has no name", n.typ, int(k))
	}
	return []byte(n.list[k]), nil
}

// parse sets *k to the value named text, or returns an error naming the
// type and the value and listing the known names.
func (n names[K]) parse(text []byte, k *K) error {
	if i := slices.Index(n.list, string(text)); i >= 0 {
		*k = K(i)
		return nil
	}
	quoted := make([]string, len(n.list))
	for i, name := range n.list {
		quoted[i] = strconv.Quote(name)
	}
	return fmt.Errorf("monopoly: unknown %s %q (known: %s)", n.typ, text, strings.Join(quoted, ", "))
}

// parseJSON reads a name as a JSON string, or the number that saved games
// of earlier versions hold; null leaves *k as it is.
func (n names[K]) parseJSON(data []byte, k *K) error {
	if string(data) == "null" {
		return nil
	}
	if v, ok, err := legacyNumber(n.typ, data); ok || err != nil {
		*k = K(v)
		return err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("monopoly: %s: want a name as a JSON string, got %s", n.typ, data)
	}
	return n.parse([]byte(s), k)
}

// legacyNumber reads a JSON number, the form in which games saved before
// the enumerations had names wrote them. It reports false for anything
// else. The range of the value is the reader's to check, as it was then
// (UnmarshalGame names the field).
func legacyNumber(typ string, data []byte) (uint8, bool, error) {
	s := string(data)
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(s, 10, 8)
	if err != nil {
		return 0, true, fmt.Errorf("monopoly: %s %s is neither a name nor a small number", typ, s)
	}
	return uint8(n), true, nil
}

// The methods below only pick the table, one line each: each type needs
// its own methods for encoding/json and the YAML reader to find them.

// MarshalText writes the decision kind's name, such as "trade_response".
func (k DecisionKind) MarshalText() ([]byte, error) { return decisionNames.text(k) }

// UnmarshalText reads a decision kind's name.
func (k *DecisionKind) UnmarshalText(text []byte) error { return decisionNames.parse(text, k) }

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (k *DecisionKind) UnmarshalJSON(data []byte) error { return decisionNames.parseJSON(data, k) }

// MarshalText writes the action kind's name, such as "propose_trade".
func (k ActionKind) MarshalText() ([]byte, error) { return actionNames.text(k) }

// UnmarshalText reads an action kind's name.
func (k *ActionKind) UnmarshalText(text []byte) error { return actionNames.parse(text, k) }

// MarshalText writes the phase's name, such as "before_roll".
func (p Phase) MarshalText() ([]byte, error) { return phaseNames.text(p) }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(text []byte) error { return phaseNames.parse(text, p) }

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (p *Phase) UnmarshalJSON(data []byte) error { return phaseNames.parseJSON(data, p) }

// MarshalText writes the event kind's name, such as "auction_won".
func (k EventKind) MarshalText() ([]byte, error) { return eventNames.text(k) }

// UnmarshalText reads an event kind's name.
func (k *EventKind) UnmarshalText(text []byte) error { return eventNames.parse(text, k) }

// MarshalText writes the reason's name, such as "jail_fine". ReasonNone's
// name is the empty string.
func (r Reason) MarshalText() ([]byte, error) { return reasonNames.text(r) }

// UnmarshalText reads a reason's name ("" for ReasonNone).
func (r *Reason) UnmarshalText(text []byte) error { return reasonNames.parse(text, r) }

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (r *Reason) UnmarshalJSON(data []byte) error { return reasonNames.parseJSON(data, r) }

// refusalNames are the refusals' codes by Refusal.
var refusalNames = names[Refusal]{"Refusal", func() []string {
	codes := make([]string, numRefusals)
	for r := range numRefusals {
		codes[r] = refusals[r].code
	}
	return codes
}()}

// MarshalText writes the refusal's code, such as "uneven_building".
func (r Refusal) MarshalText() ([]byte, error) { return refusalNames.text(r) }

// UnmarshalText reads a refusal's code.
func (r *Refusal) UnmarshalText(text []byte) error { return refusalNames.parse(text, r) }
