package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/wire"
)

// A decision reaches submit_decision in one of three forms, all read
// here into the engine's action, which the session then checks like any
// other answer:
//
//   - gopoly's action JSON, {"kind":"buy"}, or its answer JSON with words,
//     {"action":{"kind":"buy"},"speech":"Mine!"} (package wire);
//   - monopoly-mcp's payloads, {"kind":"purchaseProperty","buy":true},
//     whose kinds are camelCase and never gopoly's;
//   - gopoly's text notation, "buy" or "bid 120", as a JSON string.
//
// Either JSON form may also come as a JSON-encoded string, as
// monopoly-mcp's clients send it. The mapping of monopoly-mcp's kinds is
// a translation of words, never a rule: where one of its kinds means
// something narrower than the engine's action (yieldTurn ends the turn;
// the engine's continue also rolls), the narrower meaning is kept by
// reading the decision's phase, and whether the action is legal is the
// engine's to say.

// Dialects, as submit_decision reports which it read.
const (
	dialectGopoly   = "gopoly"
	dialectMCP      = "monopoly-mcp"
	dialectNotation = "notation"
)

// mcpKinds are monopoly-mcp's payload kinds, each with the keys it takes
// besides kind, speech and thought. deck, limit, location and to are
// gopoly's additions, so that every legal action has a payload of its
// own: which jail card, a sealed deal's limit, which square, whom to
// trade with.
var mcpKinds = map[string][]string{
	"rollDice":           nil,
	"yieldTurn":          nil,
	"declareBankruptcy":  nil,
	"purchaseProperty":   {"buy"},
	"jailExit":           {"choice", "deck"},
	"auctionBid":         {"bid"},
	"attemptTrade":       {"accept", "limit"},
	"acceptCounterOffer": {"accept", "limit"},
	"proposeTrade":       {"buyerGives", "sellerGives", "to"},
	"counterTrade":       {"buyerGives", "sellerGives"},
	"mortgageProperty":   {"mortgage", "location"},
	"unmortgageProperty": {"unmortgage", "location"},
	"improveGroup":       {"improve", "colorGroup", "location"},
	"unimproveGroup":     {"unimprove", "colorGroup", "location"},
	"movementChoice":     {"choice", "location"},
}

// busMoves are movementChoice's choices after the speed die's Bus: which
// of the white dice to move by.
var busMoves = []string{"die1", "die2", "total"}

// jailChoices are jailExit's choices and the engine's actions for them.
// "wait" is staying in jail, which in the engine is a roll for doubles
// that may fail.
var jailChoices = map[string]monopoly.ActionKind{
	"payFine":    monopoly.ActPayJailFine,
	"useCard":    monopoly.ActUseJailCard,
	"tryDoubles": monopoly.ActRollForDoubles,
	"wait":       monopoly.ActRollForDoubles,
}

// parsed is a decision as read from a client.
type parsed struct {
	action          monopoly.Action
	speech, thought string
	dialect         string
}

// asking is the seat a decision is read for. Its Pending (the decision,
// its options and its view) is made only when a monopoly-mcp payload is
// read, against the legal options: gopoly's JSON and the notation need
// only the seat and the players' names.
type asking struct {
	seat    int
	names   []string
	pending func() *session.Pending
}

// mcpSide is one side of a monopoly-mcp trade payload.
type mcpSide struct {
	Cash              int64    `json:"cash,omitempty"`
	PropertyLocations []int    `json:"propertyLocations,omitempty"`
	JailCards         []string `json:"jailCards,omitempty"`
}

// parseDecision reads raw, a decision in any of the forms above, for the
// seat q asks.
func parseDecision(q asking, r *monopoly.Rules, raw json.RawMessage) (parsed, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return parsed{}, fmt.Errorf("decision: %v", err)
		}
		text = strings.TrimSpace(text)
		if !strings.HasPrefix(text, "{") {
			a, err := wire.Notation{Rules: r, Names: q.names}.Parse(q.seat, text)
			return parsed{action: a, dialect: dialectNotation}, err
		}
		raw = []byte(text)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return parsed{}, fmt.Errorf("decision: want a JSON object such as {\"kind\":\"buy\"} or {\"kind\":\"rollDice\"}, "+
			"a JSON-encoded string of one, or a move in the text notation such as \"buy\"; got %s", clip(raw))
	}
	if _, ok := keys["action"]; ok {
		a, speech, thought, err := wire.DecodeAnswer(r, q.seat, raw)
		return parsed{action: a, speech: speech, thought: thought, dialect: dialectGopoly}, err
	}
	var kind string
	if err := json.Unmarshal(keys["kind"], &kind); err != nil || kind == "" {
		return parsed{}, errors.New(`decision: "kind" is missing or not a string: want a gopoly action kind (` +
			strings.Join(gopolyKinds(), ", ") + `) or a monopoly-mcp kind (` + strings.Join(slices.Sorted(maps.Keys(mcpKinds)), ", ") + ")")
	}
	if _, ok := mcpKinds[kind]; !ok {
		a, err := wire.DecodeAction(r, q.seat, raw)
		if err != nil && !slices.Contains(gopolyKinds(), kind) {
			err = fmt.Errorf("decision: unknown kind %q: want a gopoly action kind (%s) or a monopoly-mcp kind (%s)",
				kind, strings.Join(gopolyKinds(), ", "), strings.Join(slices.Sorted(maps.Keys(mcpKinds)), ", "))
		}
		return parsed{action: a, dialect: dialectGopoly}, err
	}
	w, speech, thought, err := fromMCP(q.pending(), kind, keys)
	if err != nil {
		return parsed{}, fmt.Errorf("decision: %s: %w", kind, err)
	}
	a, err := w.Action(r, q.seat)
	return parsed{action: a, speech: speech, thought: thought, dialect: dialectMCP}, err
}

// fromMCP translates a monopoly-mcp payload of kind into the engine's
// action, key by key, for wire to check as it checks the action's JSON.
func fromMCP(p *session.Pending, kind string, keys map[string]json.RawMessage) (w wire.Fields, speech, thought string, err error) {
	allowed := append([]string{"kind", "speech", "thought"}, mcpKinds[kind]...)
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if !slices.Contains(allowed, k) {
			return w, "", "", fmt.Errorf("unknown key %q (this kind takes %s)", k, strings.Join(allowed, ", "))
		}
	}
	if err := optional(keys, "speech", &speech); err != nil {
		return w, "", "", err
	}
	if err := optional(keys, "thought", &thought); err != nil {
		return w, "", "", err
	}
	d := p.Decision
	switch kind {
	case "rollDice":
		switch {
		case d.Kind == monopoly.DecisionJail:
			w.Kind = monopoly.ActRollForDoubles
		case d.Kind == monopoly.DecisionManage && (d.Phase == monopoly.PhaseBeforeRoll || d.RollsAgain):
			w.Kind = monopoly.ActContinue
		case d.Kind == monopoly.DecisionManage:
			return w, "", "", errors.New("the roll of this turn is done and no doubles were rolled: yieldTurn ends the turn")
		default:
			return w, "", "", fmt.Errorf("nothing is to be rolled now: the decision is %s", d.Kind)
		}
	case "yieldTurn":
		switch {
		case d.Kind == monopoly.DecisionManage && d.Phase == monopoly.PhaseAfterRoll && !d.RollsAgain:
			w.Kind = monopoly.ActContinue
		case d.Kind == monopoly.DecisionManage && d.RollsAgain:
			return w, "", "", errors.New("doubles were rolled: the turn goes on with rollDice")
		case d.Kind == monopoly.DecisionManage:
			return w, "", "", errors.New("the turn's roll is still to come: rollDice")
		default:
			return w, "", "", fmt.Errorf("the turn cannot end now: the decision is %s", d.Kind)
		}
	case "declareBankruptcy":
		w.Kind = monopoly.ActDeclareBankruptcy
	case "purchaseProperty":
		var buy bool
		if err := required(keys, "buy", &buy); err != nil {
			return w, "", "", err
		}
		w.Kind = map[bool]monopoly.ActionKind{true: monopoly.ActBuy, false: monopoly.ActDecline}[buy]
	case "jailExit":
		var choice string
		if err := required(keys, "choice", &choice); err != nil {
			return w, "", "", err
		}
		act, ok := jailChoices[choice]
		if !ok {
			return w, "", "", fmt.Errorf("choice %q: want one of %s", choice, strings.Join(slices.Sorted(maps.Keys(jailChoices)), ", "))
		}
		w.Kind = act
		if deck, ok := keys["deck"]; ok {
			if choice != "useCard" {
				return w, "", "", errors.New(`"deck" goes with choice useCard only`)
			}
			w.Deck = deck
		}
	case "auctionBid":
		bid, ok := keys["bid"]
		if !ok {
			return w, "", "", errors.New(`"bid" is missing: an amount, or null to drop out`)
		}
		if string(bytes.TrimSpace(bid)) == "null" {
			w.Kind = monopoly.ActDropOut
			break
		}
		var amount int
		if err := json.Unmarshal(bid, &amount); err != nil {
			return w, "", "", fmt.Errorf("bid %s: want a whole number of dollars, or null to drop out", clip(bid))
		}
		w.Kind, w.Amount = monopoly.ActBid, &amount
	case "attemptTrade", "acceptCounterOffer":
		var accept bool
		if err := required(keys, "accept", &accept); err != nil {
			return w, "", "", err
		}
		w.Kind = map[bool]monopoly.ActionKind{true: monopoly.ActAcceptTrade, false: monopoly.ActRejectTrade}[accept]
		if _, ok := keys["limit"]; ok {
			if !accept {
				return w, "", "", errors.New(`"limit" goes with accept: true (a sealed deal's limit)`)
			}
			w.Limit = new(int)
			if err := required(keys, "limit", w.Limit); err != nil {
				return w, "", "", err
			}
		}
	case "proposeTrade", "counterTrade":
		o, err := tradeOffer(p, kind, keys)
		if err != nil {
			return w, "", "", err
		}
		w.Kind, w.Offer = map[string]monopoly.ActionKind{"proposeTrade": monopoly.ActProposeTrade, "counterTrade": monopoly.ActCounterTrade}[kind], o
	case "unmortgageProperty":
		if p.Decision.Kind == monopoly.DecisionMortgagedTransfer {
			w.Kind, err = mortgagedTransfer(p, keys)
			return w, speech, thought, err
		}
		fallthrough
	case "mortgageProperty", "improveGroup", "unimproveGroup":
		sq, act, err := squareAction(p, kind, keys)
		if err != nil {
			return w, "", "", err
		}
		w.Kind, w.Square = act, &sq
	case "movementChoice":
		sq, err := movementSquare(p, keys)
		if err != nil {
			return w, "", "", err
		}
		w.Kind, w.Square = monopoly.ActMove, &sq
	}
	return w, speech, thought, nil
}

// movementSquare reads movementChoice: after the Bus, choice die1, die2
// or total; after triples (or instead), location, the square to move to.
// The engine says whether the move is legal.
func movementSquare(p *session.Pending, keys map[string]json.RawMessage) (int, error) {
	if _, ok := keys["location"]; ok {
		var sq int
		err := required(keys, "location", &sq)
		return sq, err
	}
	var choice string
	if err := required(keys, "choice", &choice); err != nil {
		return 0, fmt.Errorf("%v (die1, die2 or total after the Bus; location after triples)", err)
	}
	d := p.Decision
	if d.Kind != monopoly.DecisionMovement || d.Amount == 0 {
		return 0, fmt.Errorf("choice %q is the Bus's: the decision is %s (after triples give location)", choice, d.Kind)
	}
	i := slices.Index(busMoves, choice)
	if i < 0 {
		return 0, fmt.Errorf("choice: want one of %s, got %q", strings.Join(busMoves, ", "), choice)
	}
	return monopoly.BusSquares(d.Square, p.View.Dice[0], p.View.Dice[1], len(p.View.Board))[i], nil
}

// mortgagedTransfer reads unmortgageProperty when a mortgaged property
// was received: unmortgage true lifts the mortgage now, false keeps it
// (and pays the transfer fee). A location, if given, must be the square
// received.
func mortgagedTransfer(p *session.Pending, keys map[string]json.RawMessage) (monopoly.ActionKind, error) {
	var lift bool
	if err := required(keys, "unmortgage", &lift); err != nil {
		return 0, fmt.Errorf("%v (true lifts the mortgage of the square received, false keeps it)", err)
	}
	if _, ok := keys["location"]; ok {
		var sq int
		if err := required(keys, "location", &sq); err != nil {
			return 0, err
		}
		if sq != p.Decision.Square {
			return 0, fmt.Errorf("location %d: the mortgaged square received is %d", sq, p.Decision.Square)
		}
	}
	if _, ok := keys["colorGroup"]; ok {
		return 0, errors.New(`"colorGroup" does not go with a mortgaged square received`)
	}
	if lift {
		return monopoly.ActLiftMortgage, nil
	}
	return monopoly.ActKeepMortgaged, nil
}

// squareKinds are monopoly-mcp's kinds that act on one square: the key
// that must be true, and the engine's action.
var squareKinds = map[string]struct {
	flag   string
	action monopoly.ActionKind
}{
	"mortgageProperty":   {"mortgage", monopoly.ActMortgage},
	"unmortgageProperty": {"unmortgage", monopoly.ActUnmortgage},
	"improveGroup":       {"improve", monopoly.ActBuild},
	"unimproveGroup":     {"unimprove", monopoly.ActSellBuilding},
}

// squareAction reads a payload on one square. Without a location the
// square is found among the legal actions of that kind: the one there
// is, or, building or selling, the first in colorGroup (the engine's
// even-building rule leaves the squares of a group it lists equal).
func squareAction(p *session.Pending, kind string, keys map[string]json.RawMessage) (int, monopoly.ActionKind, error) {
	k := squareKinds[kind]
	var on bool
	if err := required(keys, k.flag, &on); err != nil {
		return 0, 0, err
	}
	if !on {
		return 0, 0, fmt.Errorf("%s: false asks for nothing: leave it out, and go on with rollDice or yieldTurn", k.flag)
	}
	var group string
	if err := optional(keys, "colorGroup", &group); err != nil {
		return 0, 0, err
	}
	if _, ok := keys["location"]; ok {
		var sq int
		if err := required(keys, "location", &sq); err != nil {
			return 0, 0, err
		}
		if group != "" && (sq < 0 || sq >= len(p.View.Board) || groupKey(p.View.Board[sq].Group) != groupKey(group)) {
			return 0, 0, fmt.Errorf("location %d is not in colorGroup %q", sq, group)
		}
		return sq, k.action, nil
	}
	var cands []int
	groups := map[string]bool{}
	for _, a := range optionActions(p) {
		if a.Kind != k.action.String() || a.Square == nil {
			continue
		}
		g := p.View.Board[*a.Square].Group
		if group == "" || groupKey(g) == groupKey(group) {
			cands = append(cands, *a.Square)
			groups[mcpGroup(g)] = true
		}
	}
	where := ""
	if group != "" {
		where = " in colorGroup " + group
	}
	switch {
	case len(cands) == 0:
		return 0, 0, fmt.Errorf("no legal %s now%s", k.action, where)
	case len(cands) == 1, (kind == "improveGroup" || kind == "unimproveGroup") && len(groups) == 1:
		return cands[0], k.action, nil
	case kind == "improveGroup" || kind == "unimproveGroup":
		return 0, 0, fmt.Errorf("which colorGroup? %s", strings.Join(slices.Sorted(maps.Keys(groups)), ", "))
	}
	return 0, 0, fmt.Errorf("which location? %s may be on squares %v", k.action, cands)
}

// tradeOffer reads a trade payload: buyerGives is what the answering
// seat gives, sellerGives what it asks of the other. A counter goes back
// to the proposer; a proposal to the owner of the squares asked for,
// or to "to" (a seat or a player's name).
func tradeOffer(p *session.Pending, kind string, keys map[string]json.RawMessage) (*wire.OfferFields, error) {
	var give, get mcpSide
	if err := optionalStrict(keys, "buyerGives", &give); err != nil {
		return nil, err
	}
	if err := optionalStrict(keys, "sellerGives", &get); err != nil {
		return nil, err
	}
	o := &wire.OfferFields{To: -1,
		Give: wire.SideFields{Squares: give.PropertyLocations, Cash: give.Cash, JailCards: give.JailCards},
		Get:  wire.SideFields{Squares: get.PropertyLocations, Cash: get.Cash, JailCards: get.JailCards}}
	if kind == "counterTrade" {
		o.To = p.Decision.Counterparty
		if p.Decision.Kind != monopoly.DecisionTradeResponse {
			return nil, fmt.Errorf("there is no offer to counter: the decision is %s", p.Decision.Kind)
		}
		return o, nil
	}
	if to, ok := keys["to"]; ok {
		seat, err := seatOf(p.View, to)
		if err != nil {
			return nil, err
		}
		o.To = seat
		return o, nil
	}
	owners := map[int]bool{}
	for _, sq := range get.PropertyLocations {
		if sq >= 0 && sq < len(p.View.Board) && p.View.Board[sq].Owner >= 0 {
			owners[p.View.Board[sq].Owner] = true
		}
	}
	if len(owners) != 1 {
		return nil, errors.New(`whom to? name the other player with "to" (a seat or a name), or ask in sellerGives.propertyLocations for squares of one owner`)
	}
	for seat := range owners {
		o.To = seat
	}
	return o, nil
}

// seatOf reads a seat given as a number or a player's name (any case).
func seatOf(v wire.Snapshot, raw json.RawMessage) (int, error) {
	var seat int
	if json.Unmarshal(raw, &seat) == nil {
		return seat, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		for _, pl := range v.Players {
			if strings.EqualFold(pl.Name, strings.TrimSpace(name)) {
				return pl.Seat, nil
			}
		}
		return 0, fmt.Errorf("to %q: no player of that name (players: %s)", name, strings.Join(names(v), ", "))
	}
	return 0, fmt.Errorf("to %s: want a seat number or a player's name", clip(raw))
}

// required decodes keys[name] into v, which must be there.
func required(keys map[string]json.RawMessage, name string, v any) error {
	if _, ok := keys[name]; !ok {
		return fmt.Errorf("%q is missing", name)
	}
	return optional(keys, name, v)
}

// optional decodes keys[name] into v when it is there.
func optional(keys map[string]json.RawMessage, name string, v any) error {
	raw, ok := keys[name]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s %s: want %s", name, clip(raw), jsonType(v))
	}
	return nil
}

// optionalStrict is optional for an object, refusing keys v lacks.
func optionalStrict(keys map[string]json.RawMessage, name string, v any) error {
	raw, ok := keys[name]
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v (want {\"cash\": N, \"propertyLocations\": [squares], \"jailCards\": [decks]})", name, err)
	}
	return nil
}

// jsonType names what v's JSON is, for messages.
func jsonType(v any) string {
	switch v.(type) {
	case *bool:
		return "true or false"
	case *int, *int64:
		return "a whole number"
	case *string:
		return "a string"
	}
	return "an object"
}

// clip shortens raw input quoted in a message.
func clip(raw []byte) string { return cut(string(raw), maxEcho, maxEcho) }

// gopolyKinds are the engine's action kinds by name.
func gopolyKinds() []string {
	var out []string
	for k := monopoly.ActContinue; !strings.ContainsRune(k.String(), '('); k++ {
		out = append(out, k.String())
	}
	return out
}

// names are the players' names by seat.
func names(v wire.Snapshot) []string {
	out := make([]string, len(v.Players))
	for i, pl := range v.Players {
		out[i] = pl.Name
	}
	return out
}

// groupKey is a colour group's name compared loosely: "Dark Blue",
// "darkBlue" and "dark_blue" are one group.
func groupKey(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, name)
}

// mcpGroup writes a colour group as monopoly-mcp does: "brown",
// "lightBlue", "darkBlue".
func mcpGroup(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		w = strings.ToLower(w)
		if i > 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		words[i] = w
	}
	return strings.Join(words, "")
}

// optionAction is the part of a legal action's JSON the payloads need.
type optionAction struct {
	Kind   string          `json:"kind"`
	Square *int            `json:"square"`
	Amount *int            `json:"amount"`
	Limit  *int            `json:"limit"`
	Deck   json.RawMessage `json:"deck"`
	raw    json.RawMessage
}

// optionActions are p's listed legal actions.
func optionActions(p *session.Pending) []optionAction {
	if p.Options == nil {
		return nil
	}
	out := make([]optionAction, 0, len(p.Options.Actions))
	for _, raw := range p.Options.Actions {
		var a optionAction
		if json.Unmarshal(raw, &a) == nil {
			a.raw = raw
			out = append(out, a)
		}
	}
	return out
}

// legalPayload is one legal answer in both dialects.
type legalPayload struct {
	Action   json.RawMessage `json:"action" jsonschema:"the answer as gopoly action JSON"`
	Notation string          `json:"notation" jsonschema:"the same in gopoly's text notation"`
	Payload  json.RawMessage `json:"payload" jsonschema:"the same as a monopoly-mcp payload; null where monopoly-mcp has no kind for it"`
}

// legalPayloads lists p's legal actions in both dialects.
func legalPayloads(p *session.Pending) []legalPayload {
	acts := optionActions(p)
	out := make([]legalPayload, 0, len(acts))
	for i, a := range acts {
		lp := legalPayload{Action: a.raw, Payload: json.RawMessage("null")}
		if i < len(p.Options.Notation) {
			lp.Notation = p.Options.Notation[i]
		}
		if m := toMCP(p, a); m != nil {
			data, _ := json.Marshal(m)
			lp.Payload = data
		}
		out = append(out, lp)
	}
	return out
}

// mcpPayload is a monopoly-mcp payload as the server writes it: kind
// first, then the keys of that kind.
type mcpPayload struct {
	Kind       string          `json:"kind"`
	Buy        *bool           `json:"buy,omitempty"`
	Choice     string          `json:"choice,omitempty"`
	Deck       json.RawMessage `json:"deck,omitempty"`
	Bid        json.RawMessage `json:"bid,omitempty"` // a number, or null to drop out
	Accept     *bool           `json:"accept,omitempty"`
	Limit      *int            `json:"limit,omitempty"`
	Mortgage   *bool           `json:"mortgage,omitempty"`
	Unmortgage *bool           `json:"unmortgage,omitempty"`
	Improve    *bool           `json:"improve,omitempty"`
	Unimprove  *bool           `json:"unimprove,omitempty"`
	ColorGroup string          `json:"colorGroup,omitempty"`
	Location   *int            `json:"location,omitempty"`
}

// toMCP is the monopoly-mcp payload of legal action a, which
// parseDecision reads back as a (nil: that dialect has no kind for it).
func toMCP(p *session.Pending, a optionAction) *mcpPayload {
	d := p.Decision
	yes, no := true, false
	flag := func(b bool) *bool {
		if b {
			return &yes
		}
		return &no
	}
	onSquare := func(m *mcpPayload, grouped bool) *mcpPayload {
		m.Location = a.Square
		if grouped && a.Square != nil && *a.Square >= 0 && *a.Square < len(p.View.Board) {
			m.ColorGroup = mcpGroup(p.View.Board[*a.Square].Group)
		}
		return m
	}
	switch a.Kind {
	case "continue":
		if d.Phase == monopoly.PhaseBeforeRoll || d.RollsAgain {
			return &mcpPayload{Kind: "rollDice"}
		}
		return &mcpPayload{Kind: "yieldTurn"}
	case "build":
		return onSquare(&mcpPayload{Kind: "improveGroup", Improve: &yes}, true)
	case "sell_building":
		return onSquare(&mcpPayload{Kind: "unimproveGroup", Unimprove: &yes}, true)
	case "mortgage":
		return onSquare(&mcpPayload{Kind: "mortgageProperty", Mortgage: &yes}, false)
	case "unmortgage":
		return onSquare(&mcpPayload{Kind: "unmortgageProperty", Unmortgage: &yes}, false)
	case "pay_jail_fine":
		return &mcpPayload{Kind: "jailExit", Choice: "payFine"}
	case "roll_for_doubles":
		return &mcpPayload{Kind: "jailExit", Choice: "tryDoubles"}
	case "use_jail_card":
		m := &mcpPayload{Kind: "jailExit", Choice: "useCard"}
		if len(a.Deck) > 0 && string(a.Deck) != "null" {
			m.Deck = a.Deck
		}
		return m
	case "buy", "decline":
		return &mcpPayload{Kind: "purchaseProperty", Buy: flag(a.Kind == "buy")}
	case "bid":
		if a.Amount == nil {
			return nil
		}
		return &mcpPayload{Kind: "auctionBid", Bid: json.RawMessage(fmt.Sprint(*a.Amount))}
	case "drop_out":
		return &mcpPayload{Kind: "auctionBid", Bid: json.RawMessage("null")}
	case "accept_trade", "reject_trade":
		kind := "attemptTrade"
		if d.TradeRound > 0 {
			kind = "acceptCounterOffer"
		}
		return &mcpPayload{Kind: kind, Accept: flag(a.Kind == "accept_trade"), Limit: a.Limit}
	case "declare_bankruptcy":
		return &mcpPayload{Kind: "declareBankruptcy"}
	case "keep_mortgaged", "lift_mortgage":
		return &mcpPayload{Kind: "unmortgageProperty", Unmortgage: flag(a.Kind == "lift_mortgage"), Location: &d.Square}
	case "move":
		if d.Amount > 0 && a.Square != nil {
			// The Bus: name the move by the die, as monopoly-mcp does.
			to := monopoly.BusSquares(d.Square, p.View.Dice[0], p.View.Dice[1], len(p.View.Board))
			if i := slices.Index(to[:], *a.Square); i >= 0 {
				return &mcpPayload{Kind: "movementChoice", Choice: busMoves[i]}
			}
		}
		return &mcpPayload{Kind: "movementChoice", Location: a.Square}
	}
	return nil
}
