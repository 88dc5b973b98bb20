package monopoly

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The stable names of the engine's enumerations as text, so that JSON,
// YAML and every client (wire format, logs, prompts) speak the same
// snake_case words as String. Unknown values and names are errors rather
// than "DecisionKind(9)": text written must read back.

// nameOf returns names[v], or an error naming the type for a value with
// no name.
func nameOf(typ string, v int, names []string) ([]byte, error) {
	if v < 0 || v >= len(names) {
		return nil, fmt.Errorf("monopoly: %s %d has no name", typ, v)
	}
	return []byte(names[v]), nil
}

// valueOf returns the index of text in names, or an error naming the type
// and the value and listing the known names.
func valueOf(typ string, text []byte, names []string) (int, error) {
	for i, n := range names {
		if n == string(text) {
			return i, nil
		}
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return 0, fmt.Errorf("monopoly: unknown %s %q (known: %s)", typ, text, strings.Join(quoted, ", "))
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

// unquote reads a JSON string for UnmarshalJSON.
func unquote(typ string, data []byte) ([]byte, error) {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("monopoly: %s: want a name as a JSON string, got %s", typ, data)
	}
	return []byte(s), nil
}

// MarshalText writes the decision kind's name, such as "trade_response".
func (k DecisionKind) MarshalText() ([]byte, error) {
	return nameOf("DecisionKind", int(k), decisionNames[:])
}

// UnmarshalText reads a decision kind's name.
func (k *DecisionKind) UnmarshalText(text []byte) error {
	v, err := valueOf("DecisionKind", text, decisionNames[:])
	if err == nil {
		*k = DecisionKind(v)
	}
	return err
}

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (k *DecisionKind) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if n, ok, err := legacyNumber("DecisionKind", data); ok || err != nil {
		*k = DecisionKind(n)
		return err
	}
	text, err := unquote("DecisionKind", data)
	if err != nil {
		return err
	}
	return k.UnmarshalText(text)
}

// MarshalText writes the action kind's name, such as "propose_trade".
func (k ActionKind) MarshalText() ([]byte, error) {
	return nameOf("ActionKind", int(k), actionNames[:])
}

// UnmarshalText reads an action kind's name.
func (k *ActionKind) UnmarshalText(text []byte) error {
	v, err := valueOf("ActionKind", text, actionNames[:])
	if err == nil {
		*k = ActionKind(v)
	}
	return err
}

// MarshalText writes the phase's name, such as "before_roll".
func (p Phase) MarshalText() ([]byte, error) {
	return nameOf("Phase", int(p), phaseNames[:])
}

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(text []byte) error {
	v, err := valueOf("Phase", text, phaseNames[:])
	if err == nil {
		*p = Phase(v)
	}
	return err
}

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (p *Phase) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if n, ok, err := legacyNumber("Phase", data); ok || err != nil {
		*p = Phase(n)
		return err
	}
	text, err := unquote("Phase", data)
	if err != nil {
		return err
	}
	return p.UnmarshalText(text)
}

// MarshalText writes the event kind's name, such as "auction_won".
func (k EventKind) MarshalText() ([]byte, error) {
	return nameOf("EventKind", int(k), eventNames[:])
}

// UnmarshalText reads an event kind's name.
func (k *EventKind) UnmarshalText(text []byte) error {
	v, err := valueOf("EventKind", text, eventNames[:])
	if err == nil {
		*k = EventKind(v)
	}
	return err
}

// MarshalText writes the reason's name, such as "jail_fine". ReasonNone's
// name is the empty string.
func (r Reason) MarshalText() ([]byte, error) {
	return nameOf("Reason", int(r), reasonNames[:])
}

// UnmarshalText reads a reason's name ("" for ReasonNone).
func (r *Reason) UnmarshalText(text []byte) error {
	v, err := valueOf("Reason", text, reasonNames[:])
	if err == nil {
		*r = Reason(v)
	}
	return err
}

// UnmarshalJSON reads a name, or the number that saved games of earlier
// versions hold.
func (r *Reason) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if n, ok, err := legacyNumber("Reason", data); ok || err != nil {
		*r = Reason(n)
		return err
	}
	text, err := unquote("Reason", data)
	if err != nil {
		return err
	}
	return r.UnmarshalText(text)
}

// refusalCodes lists the refusals' codes by Refusal, for the name tables.
var refusalCodes = func() []string {
	codes := make([]string, numRefusals)
	for r := range numRefusals {
		codes[r] = refusals[r].code
	}
	return codes
}()

// MarshalText writes the refusal's code, such as "uneven_building".
func (r Refusal) MarshalText() ([]byte, error) {
	return nameOf("Refusal", int(r), refusalCodes)
}

// UnmarshalText reads a refusal's code.
func (r *Refusal) UnmarshalText(text []byte) error {
	v, err := valueOf("Refusal", text, refusalCodes)
	if err == nil {
		*r = Refusal(v)
	}
	return err
}
