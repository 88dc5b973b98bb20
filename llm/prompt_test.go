package llm_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire/wiretest"
)

// TestPromptSections: every call carries the six sections, the rules as
// this game's variant plays, the answer's schema, and the persona.
func TestPromptSections(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	persona := filepath.Join(t.TempDir(), "pirate.txt")
	os.WriteFile(persona, []byte("NAME: The Pirate\nYou talk like a pirate and buy every railroad."), 0o600)
	variants := []struct{ rules, want, not string }{
		{"", "goes to auction", "sealed"},
		{"auctions: true", "goes to auction", "beyond your cash"},
		{"raise_to_buy: true", "bid, beyond your cash", ""},
		{"auctions: false", "no auctions in this game", "goes to auction"},
		{"deal_protocol: sealed", "sealed deals", "counter-offer"},
		{"counter_offers: 2", "up to 2 counter-offers", "sealed deals"},
		{"free_parking_jackpot: true", "Free Parking jackpot", ""},
		{"mortgaged_group_double_rent: true", "even when one of them is mortgaged", ""},
		{"speed_die: true", "the Bus lets you move", ""},
		{"max_rounds: 300", "counting cash, properties at their printed price", "what each could raise"},
		{"max_rounds: 300\nnet_worth: resale", "what each could raise", "at their printed price"},
	}
	for _, who := range []string{"shark", persona} {
		for _, v := range variants {
			r, err := monopoly.DefaultRules().WithOverrides("test", []byte(v.rules))
			if err != nil {
				t.Fatal(err)
			}
			g := monopoly.New(r, 4, 3)
			for g.Pending().Kind != monopoly.DecisionBuy {
				if err := g.Apply(monopoly.Action{Kind: monopoly.ActContinue, Player: g.Decider()}); err != nil {
					t.Fatal(err)
				}
			}
			d := g.Pending()
			a, err := agent.New("llm:"+who, d.Player, 1)
			if err != nil {
				t.Fatal(err)
			}
			a.(agent.Seated).Seat([]string{"Ann", "Bob", "Cat", "Dan"}, []string{"llm:shark", "llm:professor", "human", "turtle"})
			ans := a.(agent.Talker).Answer(g.View(d.Player), d)
			calls := srv.Calls()
			c := calls[len(calls)-1]
			for _, s := range []string{"[PERSONALITY]", "[RULES]"} {
				if !strings.Contains(c.System, s) {
					t.Errorf("%s: the system prompt lacks %s", v.rules, s)
				}
			}
			for _, s := range []string{"[CONTEXT]", "[PUBLIC_HISTORY]", "[PRIVATE_HISTORY]", "[DECISION]", "You must now decide: buy", llm.LegalHeader, `{"kind":"buy"}`} {
				if !strings.Contains(c.User(), s) {
					t.Errorf("%s: the user message lacks %q", v.rules, s)
				}
			}
			if !strings.Contains(c.System, v.want) || v.not != "" && strings.Contains(c.System, v.not) {
				t.Errorf("rules %q: want %q and not %q in\n%s", v.rules, v.want, v.not, c.System)
			}
			names := []string{"Ann", "Bob", "Cat", "Dan"}
			if !strings.Contains(c.System, "playing as "+names[d.Player]) || !strings.Contains(c.System, "Cat, seat 2 (a person)") ||
				!strings.Contains(c.System, "Dan, seat 3 (ultra-conservative") || strings.Contains(c.System, names[d.Player]+", seat") {
				t.Errorf("seat %d, the opponents: %s", d.Player, c.System)
			}
			if strings.Contains(c.System, "(cut)") {
				t.Errorf("the rules were cut by their budget:\n%s", c.System)
			}
			var schema map[string]any
			if err := json.Unmarshal([]byte(c.Schema), &schema); err != nil || !strings.Contains(c.Schema, `"public_speech"`) || !strings.Contains(c.Schema, `"anyOf"`) {
				t.Errorf("schema %s: %v", c.Schema, err)
			}
			if who == persona && (!strings.Contains(c.System, "THE PIRATE") || !strings.Contains(c.System, "like a pirate")) {
				t.Errorf("the persona is not in %s", c.System)
			}
			if ans.Action.Kind != monopoly.ActBuy {
				t.Errorf("answer %+v", ans)
			}
		}
	}
}

// TestConfigErrors: a bad file is refused with its line and key, and
// changes nothing.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"timeout: soon", "test.yaml:1"},
		{"personalities:\n  shark: {provider: nowhere, model: m, max_tokens: 100}", "unknown provider \"nowhere\""},
		{"providers:\n  x: {kind: carrier-pigeon}", "providers.x.kind"},
		{"bogus: 1", "bogus"},
		{"max_cost: -1", "max_cost"},
	} {
		before := llm.Current()
		_, err := llm.ParseConfig("test.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "llm: ") {
			t.Errorf("%q: %v, want %q", tc.doc, err, tc.want)
		}
		if llm.Current() != before {
			t.Error("a refused file changed the configuration")
		}
	}
	if err := llm.DefaultConfig().Check(); err != nil {
		t.Fatal(err)
	}
}

// A file's keys replace the defaults' and leave the rest: a personality
// given replaces that one whole, the others stay, and so do the keys the
// file does not give.
func TestConfigOverlay(t *testing.T) {
	def := llm.DefaultConfig()
	c, err := llm.ParseConfig("mine.yaml", []byte("timeout: 7s\npersonalities:\n  shark: {provider: ollama, model: llama3.1:8b, max_tokens: 300}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != llm.Duration(7*time.Second) || c.Retries != def.Retries || c.Spacing != def.Spacing {
		t.Errorf("timeout %v retries %d spacing %v; want 7s and the defaults %d, %v", c.Timeout, c.Retries, c.Spacing, def.Retries, def.Spacing)
	}
	if s := c.Personalities["shark"]; s.Provider != "ollama" || s.Model != "llama3.1:8b" || s.Temperature != nil || s.MaxTokens != 300 {
		t.Errorf("shark %+v: want the file's, whole", s)
	}
	if !reflect.DeepEqual(c.Personalities["professor"], def.Personalities["professor"]) || len(c.Providers) != len(def.Providers) || len(c.Prices) != len(def.Prices) {
		t.Errorf("the defaults the file does not give were lost: %+v", c.Personalities)
	}
	// A block of fields given in part keeps the defaults of the rest.
	c, err = llm.ParseConfig("mine.yaml", []byte("budgets: {rules: 123}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := def.Budgets
	want.Rules = 123
	if c.Budgets != want || def.Budgets.Rules == 123 {
		t.Errorf("budgets %+v, want the defaults but rules: %+v", c.Budgets, want)
	}
}

// TestPromptInJail: before a turn in jail the decision is not put as
// "Roll the dice", which a player in jail cannot simply do.
func TestPromptInJail(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	found := false
	wiretest.Positions(t, monopoly.DefaultRules(), 20, func(g *monopoly.Game, seed uint64, n int) bool {
		d := g.Pending()
		if d.Kind != monopoly.DecisionManage || g.Phase() != monopoly.PhaseBeforeRoll || !g.InJail(d.Player) {
			return true
		}
		a, err := agent.New("llm:shark", d.Player, 1)
		if err != nil {
			t.Fatal(err)
		}
		a.(agent.Talker).Answer(g.View(d.Player), d)
		calls := srv.Calls()
		u := calls[len(calls)-1].User()
		if strings.Contains(u, "Roll the dice") || !strings.Contains(u, "turn in jail") {
			t.Errorf("seed %d decision %d: in jail the prompt reads:\n%s", seed, n, u)
		}
		found = true
		return false
	})
	if !found {
		t.Fatal("no turn began in jail in 20 games")
	}
}
