package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/monopoly"
)

// validate_config and save_config also take monopoly-mcp's config YAML:
// its sections (rules, speed_die, chance_deck, community_chest_deck,
// action_cells, ai, tokens) are translated here into gopoly's rules keys,
// and its action DSL into gopoly's (the two are close: ADVANCE_TO,
// TRANSLATE, PAY, RECEIVE). What has no counterpart in gopoly's rules is
// said in notes (the AI tuning: gopoly's bots take their knobs per seat)
// or refused with the reason (an effect gopoly's engine does not have).

// mcpSections are monopoly-mcp's top-level config keys; a config with
// any of them, and none of gopoly's, is read as monopoly-mcp's.
var mcpSections = []string{"rules", "speed_die", "chance_deck", "community_chest_deck", "action_cells", "ai", "tokens"}

// mcpRuleKeys are monopoly-mcp's rules keys and gopoly's names for them
// ("": accepted and not used, as monopoly-mcp itself does not).
var mcpRuleKeys = map[string]string{
	"enable_auctions":   "auctions",
	"bank_free_parking": "",
	"starting_balance":  "starting_cash",
	"pass_go_bonus":     "go_salary",
	"jail_fine":         "jail_fine",
	"max_jail_turns":    "jail_turns",
	"max_rounds":        "max_rounds",
}

// isMCPConfig reports whether text is a monopoly-mcp config: a mapping
// whose keys include one of its sections and are all its or gopoly's
// speed_die (which both have).
func isMCPConfig(text string) bool {
	var doc map[string]any
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc) == 0 {
		return false
	}
	for k, v := range doc {
		if !slices.Contains(mcpSections, k) {
			return false
		}
		if k == "speed_die" {
			if _, ok := v.(map[string]any); !ok {
				return false // gopoly's speed_die: true
			}
		}
	}
	return true
}

// fromMCPConfig translates a monopoly-mcp config into gopoly's rules
// YAML, with notes on what it leaves out.
func fromMCPConfig(text string) (string, []string, error) {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", nil, err
	}
	out := map[string]any{}
	var notes []string
	if r, ok := doc["rules"]; ok {
		rules, ok := r.(map[string]any)
		if !ok {
			return "", nil, errors.New("rules: want a mapping, such as {enable_auctions: true}")
		}
		for _, k := range sortedKeys(rules) {
			name, known := mcpRuleKeys[k]
			switch {
			case known && name == "":
				notes = append(notes, "rules."+k+" is reserved in monopoly-mcp and not used")
			case known:
				out[name] = rules[k]
			default:
				out[k] = rules[k] // gopoly's own key, or refused by the rules' check
			}
		}
	}
	if sd, ok := doc["speed_die"]; ok {
		m, _ := sd.(map[string]any)
		if faces, ok := m["faces"]; ok {
			out["speed_die_faces"] = faces
		}
		notes = append(notes, "speed_die: the faces are kept; the die is on where a game's rules say speed_die: true (create_game rules, start_experiment rules)")
	}
	decks, err := mcpDecks(doc)
	if err != nil {
		return "", nil, err
	}
	if decks != nil {
		out["decks"] = decks
	}
	if _, ok := doc["action_cells"]; ok {
		return "", nil, errors.New("action_cells: gopoly gives an action square's effect on the board (board[].do), by its place: write the board in gopoly's keys (game://config-docs)")
	}
	for _, k := range []string{"ai", "tokens"} {
		if _, ok := doc[k]; ok {
			notes = append(notes, k+" is not a rule in gopoly: a bot's knobs go with its seat (create_game players[].ai.params), and players are named by create_game")
		}
	}
	data, err := yaml.Marshal(out)
	if err != nil {
		return "", nil, err
	}
	if len(out) == 0 {
		data = nil
	}
	return string(data), notes, nil
}

// mcpDecks are the decks of gopoly's default rules with chance_deck and
// community_chest_deck, where given, in their place.
func mcpDecks(doc map[string]any) ([]any, error) {
	given := map[string]string{"chance": "chance_deck", "community_chest": "community_chest_deck"}
	some := false
	for _, k := range given {
		_, ok := doc[k]
		some = some || ok
	}
	if !some {
		return nil, nil
	}
	data, err := monopoly.DefaultRules().MarshalJSON()
	if err != nil {
		return nil, err
	}
	var def struct {
		Decks []map[string]any `json:"decks"`
	}
	if err := json.Unmarshal(data, &def); err != nil {
		return nil, err
	}
	var out []any
	for _, d := range def.Decks {
		key := given[fmt.Sprint(d["name"])]
		cards, ok := doc[key]
		if key == "" || !ok {
			out = append(out, d)
			continue
		}
		list, ok := cards.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: want a list of cards, each with player_action", key)
		}
		var deck []any
		for i, c := range list {
			card, _ := c.(map[string]any)
			action, _ := card["player_action"].(string)
			if action == "" {
				return nil, fmt.Errorf("%s[%d]: player_action is missing", key, i)
			}
			do, err := fromMCPAction(action)
			if err != nil {
				return nil, fmt.Errorf("%s[%d].player_action: %w", key, i, err)
			}
			text := fmt.Sprint(firstOf(card, "text", "description", "name", "title"))
			if text == "" || text == "<nil>" {
				text = action
			}
			deck = append(deck, map[string]any{"id": fmt.Sprintf("%s-%d", d["name"], i+1), "text": text, "do": do})
		}
		out = append(out, map[string]any{"name": d["name"], "cards": deck})
	}
	return out, nil
}

// firstOf is the first of keys m has.
func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// mcpAction is one command of monopoly-mcp's action DSL.
var mcpAction = regexp.MustCompile(`^(?i)\s*([a-z_]+)\s*(.*?)\s*$`)

// Parts of its commands.
var (
	mcpTarget   = regexp.MustCompile(`^(?i)(nearest|next)\s*\(\s*([a-z_,\s]*?)\s*\)$`)
	mcpAmount   = regexp.MustCompile(`^(?i)(-?\d+|property_multiplier\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\))\s*(bank|all_players)?$`)
	mcpSigned   = regexp.MustCompile(`^-?\d+$`)
	mcpNearest  = map[string]string{"property": "street", "railroad": "railroad", "utility": "utility"}
	mcpNextKind = map[string]string{"unowned_purchaseable": "unowned", "rent_owed_purchaseable": "rent_owed"}
)

// fromMCPAction translates one of monopoly-mcp's actions into gopoly's
// action DSL (package monopoly, dsl.go).
func fromMCPAction(action string) (string, error) {
	m := mcpAction.FindStringSubmatch(action)
	if m == nil {
		return "", fmt.Errorf("%q: not an action", clip([]byte(action)))
	}
	cmd, arg := strings.ToUpper(m[1]), m[2]
	lower := strings.ToLower(arg)
	switch cmd {
	case "ADVANCE_TO":
		if mcpSigned.MatchString(arg) {
			return "ADVANCE_TO " + arg, nil
		}
		t := mcpTarget.FindStringSubmatch(lower)
		if t == nil {
			return "", fmt.Errorf("ADVANCE_TO %q: want a board index, nearest(...) or next(...)", clip([]byte(arg)))
		}
		args := strings.FieldsFunc(t[2], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if t[1] == "nearest" {
			if len(args) != 1 || mcpNearest[args[0]] == "" {
				return "", fmt.Errorf("ADVANCE_TO nearest(%s): gopoly moves to the nearest property, railroad or utility", t[2])
			}
			return "ADVANCE_TO NEAREST " + mcpNearest[args[0]], nil
		}
		var parts []string
		for _, a := range args {
			if mcpNextKind[a] == "" {
				return "", fmt.Errorf("ADVANCE_TO next(%s): want unowned_purchaseable or rent_owed_purchaseable", t[2])
			}
			parts = append(parts, "NEXT "+mcpNextKind[a])
		}
		if len(parts) == 0 || len(parts) > 2 {
			return "", fmt.Errorf("ADVANCE_TO next(%s): gopoly takes one or two targets", t[2])
		}
		return "ADVANCE_TO " + strings.Join(parts, " OR "), nil
	case "PAY", "RECEIVE":
		a := mcpAmount.FindStringSubmatch(lower)
		if a == nil {
			return "", fmt.Errorf("%s %q: want an amount, then BANK or all_players", cmd, clip([]byte(arg)))
		}
		each := ""
		if a[4] == "all_players" {
			each = " EACH"
		}
		if a[2] != "" {
			if cmd != "PAY" || each != "" {
				return "", fmt.Errorf("%s property_multiplier(...) %s: gopoly's repairs are paid to the bank only", cmd, a[4])
			}
			return fmt.Sprintf("REPAIRS %s %s", a[2], a[3]), nil
		}
		n, _ := strconv.Atoi(a[1])
		if n < 0 { // a negative payment is a receipt, and the other way round
			cmd, n = map[string]string{"PAY": "RECEIVE", "RECEIVE": "PAY"}[cmd], -n
		}
		return fmt.Sprintf("%s %d%s", cmd, n, each), nil
	case "TRANSLATE":
		if !mcpSigned.MatchString(arg) {
			return "", fmt.Errorf("TRANSLATE %q: want a whole number of squares", clip([]byte(arg)))
		}
		return "TRANSLATE " + arg, nil
	case "DRAW_CARD":
		if lower != "chance" && lower != "community_chest" {
			return "", fmt.Errorf("DRAW_CARD %q: want chance or community_chest", clip([]byte(arg)))
		}
		return "DRAW " + lower, nil
	case "SET_JAIL":
		switch lower {
		case "true":
			return "GO_TO_JAIL", nil
		case "false":
			return "", errors.New("SET_JAIL false: gopoly's cards do not free a player from jail (a Get Out of Jail Free card is ADD_JAIL_FREE)")
		}
		return "", fmt.Errorf("SET_JAIL %q: want true or false", clip([]byte(arg)))
	case "ADD_JAIL_FREE":
		if arg == "" {
			return "KEEP", nil
		}
	case "NOOP":
		if arg == "" {
			return "PAY 0", nil
		}
	}
	return "", fmt.Errorf("%q: not one of monopoly-mcp's actions (ADVANCE_TO, PAY, RECEIVE, TRANSLATE, DRAW_CARD, SET_JAIL, ADD_JAIL_FREE, NOOP)", clip([]byte(action)))
}

// sortedKeys are m's keys in order, for messages that do not change.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
