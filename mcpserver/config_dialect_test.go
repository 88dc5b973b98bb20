package mcpserver

import (
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// TestMCPActions translates the examples of monopoly-mcp's action DSL
// from its README (seed 000), and checks that each translation is an
// action gopoly's cards accept (DRAW, an action square's, aside), or
// that the refusal says why.
func TestMCPActions(t *testing.T) {
	cases := []struct{ in, want, refused string }{
		{"ADVANCE_TO 0", "ADVANCE_TO 0", ""},
		{"ADVANCE_TO nearest(railroad)", "ADVANCE_TO NEAREST railroad", ""},
		{"ADVANCE_TO nearest(utility)", "ADVANCE_TO NEAREST utility", ""},
		{"ADVANCE_TO nearest(property)", "ADVANCE_TO NEAREST street", ""},
		{"ADVANCE_TO nearest(jail)", "", "nearest property, railroad or utility"},
		{"ADVANCE_TO next(unowned_purchaseable)", "ADVANCE_TO NEXT unowned", ""},
		{"ADVANCE_TO next(rent_owed_purchaseable)", "ADVANCE_TO NEXT rent_owed", ""},
		{"ADVANCE_TO next(unowned_purchaseable, rent_owed_purchaseable)", "ADVANCE_TO NEXT unowned OR NEXT rent_owed", ""},
		{"PAY 50", "PAY 50", ""},
		{"PAY 200 BANK", "PAY 200", ""},
		{"PAY 50 all_players", "PAY 50 EACH", ""},
		{"PAY property_multiplier(25,100)", "REPAIRS 25 100", ""},
		{"PAY property_multiplier(40,115) all_players", "", "to the bank only"},
		{"RECEIVE 200", "RECEIVE 200", ""},
		{"RECEIVE 50 BANK", "RECEIVE 50", ""},
		{"RECEIVE 10 all_players", "RECEIVE 10 EACH", ""},
		{"TRANSLATE -3", "TRANSLATE -3", ""},
		{"TRANSLATE 2", "TRANSLATE 2", ""},
		{"DRAW_CARD chance", "DRAW chance", ""},
		{"DRAW_CARD community_chest", "DRAW community_chest", ""},
		{"SET_JAIL true", "GO_TO_JAIL", ""},
		{"SET_JAIL false", "", "do not free a player"},
		{"ADD_JAIL_FREE", "KEEP", ""},
		{"NOOP", "PAY 0", ""},
		{"noop", "PAY 0", ""},
		{"advance_to Nearest(RAILROAD)", "ADVANCE_TO NEAREST railroad", ""},
		{"FLY_TO 3", "", "not one of monopoly-mcp's actions"},
	}
	for _, c := range cases {
		got, err := fromMCPAction(c.in)
		switch {
		case c.refused != "":
			if err == nil || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%s: %q, %v; want refused with %q", c.in, got, err, c.refused)
			}
			continue
		case err != nil || got != c.want:
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
			continue
		}
		if strings.HasPrefix(got, "DRAW ") {
			continue // an action square's, which gopoly's cards refuse (a card cannot DRAW)
		}
		yaml := "decks:\n  - name: chance\n    cards:\n      - {id: a, text: a, do: \"" + got + "\"}\n  - name: community_chest\n    cards:\n      - {id: b, text: b, do: KEEP}\n"
		if _, err := monopoly.DefaultRules().WithOverrides("x", []byte(yaml)); err != nil {
			t.Errorf("%s: gopoly's rules refuse the translation %q: %v", c.in, got, err)
		}
	}
}
