package extbot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/extbot"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// peerMonopyly is the real Monopyly checkout beside the repository
// (../shared/peer/monopyly: the framework, its sample AIs and five
// contest authors' AIs). Outside CI a test that needs it skips without
// it; in CI it fails.
func peerMonopyly(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "peer", "monopyly"))
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "monopyly", "__init__.py"))
	}
	if err != nil {
		unavailable(t, fmt.Sprintf("no Monopyly checkout at ../shared/peer/monopyly (%v)", err), "the contest AIs are")
	}
	return dir
}

const hostPy = "../sdk/python/monopyly_host/host.py"

// runPython runs python3 with args and stdin, failing t on an error, and
// returns its stdout. It writes no bytecode beside the files it reads.
func runPython(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(python(t), args...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stdin = strings.NewReader(string(stdin))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// contestAIs lists every AI class of the checkout's SampleAIs and AIs
// packages as PATH#CLASS, as the host finds them (host.py --list).
func contestAIs(t *testing.T, root string) []string {
	t.Helper()
	var ais []string
	packages := 0
	for _, folder := range []string{"SampleAIs", "AIs"} {
		dirs, err := os.ReadDir(filepath.Join(root, folder))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			dir := filepath.Join(root, folder, d.Name())
			if _, err := os.Stat(filepath.Join(dir, "__init__.py")); err != nil {
				continue
			}
			packages++
			classes := strings.Fields(string(runPython(t, nil, hostPy, "--list", dir)))
			if len(classes) == 0 {
				t.Errorf("%s: the host finds no AI class", dir)
			}
			for _, c := range classes {
				ais = append(ais, dir+"#"+c)
			}
		}
	}
	if packages < 2 {
		t.Fatalf("%d AI packages in %s: the test would test nothing", packages, root)
	}
	return ais
}

// Every AI class of the Monopyly checkout (the sample AIs and the
// contest authors') plays whole games through the host, three AIs and a
// gopoly bot a game: on the real monopyly package under the rules
// closest to Monopyly's and under the standard ones, and on gopoly's
// stand-in (the AIs copied out of the checkout) under the first. No
// Python traceback in an AI's log (an exception of the AI or of the
// host), no decision answered by the fallback, no retirement.
func TestMonopylyContestAIs(t *testing.T) {
	root := peerMonopyly(t)
	ais := contestAIs(t, root)
	file, err := os.ReadFile("../examples/rules/monopyly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	outside := copyAIs(t, root)
	for _, tc := range []struct{ name, rules, root, pkg string }{
		{"monopyly.yaml", string(file), root, "the monopyly package of its checkout"},
		{"standard", "{}", root, "the monopyly package of its checkout"},
		{"shim", string(file), outside, "gopoly's stand-in monopyly package"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := monopolytest.Rules(t, tc.rules).WithOverrides("a shorter game", []byte("max_rounds: 200"))
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			var wg sync.WaitGroup
			defer wg.Wait()
			for g := 0; g*3 < len(ais); g++ {
				bots := []string{"baseline"}
				logs := map[int]string{}
				for _, ai := range ais[g*3 : min(g*3+3, len(ais))] {
					logs[len(bots)] = filepath.Join(tmp, fmt.Sprintf("%d-%d.log", g, len(bots)))
					// A generous budget: the test is of the answers, on
					// machines that may be busy.
					bots = append(bots, fmt.Sprintf("monopyly:decision=30s dir=%s log=%s %s", filepath.Join(tmp, "run"), logs[len(bots)],
						filepath.Join(tc.root, strings.TrimPrefix(ai, root))))
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					gameSlots <- struct{}{}
					defer func() { <-gameSlots }()
					seats, err := play(r, uint64(g+1), bots...)
					if err != nil {
						t.Error(err)
						return
					}
					checkContestAIs(t, tc.root, tc.pkg, bots, logs, seats)
				}()
			}
		})
	}
}

// gameSlots bounds the games of contest AIs played at once (each one a
// Python process per AI): enough to keep two cores busy while the
// processes wait on one another.
var gameSlots = make(chan struct{}, 4)

// checkContestAIs checks the AIs' seats of a game: clean logs, no
// fallback, no retirement, the expected monopyly package.
func checkContestAIs(t *testing.T, root, pkg string, bots []string, logs map[int]string, seats []agent.Agent) {
	for seat, log := range logs {
		ai := bots[seat][strings.Index(bots[seat], root)+len(root)+1:]
		got := readLog(t, log)
		st := seats[seat].(*extbot.Seat).Stats()
		fallbacks, retirements := st.TotalFallbacks, st.TotalRetirements
		if n := strings.Count(got, "Traceback"); n > 0 || fallbacks > 0 || retirements > 0 {
			t.Errorf("%s: %d tracebacks, %d fallback answers, %d retirements:\n%s", ai, n, fallbacks, retirements, clipLog(got))
		}
		if !strings.Contains(got, "with "+pkg) {
			t.Errorf("%s did not play on %s:\n%s", ai, pkg, clipLog(got))
		}
	}
}

// copyAIs copies the checkout's AI packages (their Python files), but
// not its monopyly package, to a temporary directory.
func copyAIs(t *testing.T, root string) string {
	t.Helper()
	dst := t.TempDir()
	for _, folder := range []string{"SampleAIs", "AIs"} {
		err := filepath.WalkDir(filepath.Join(root, folder), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			to := filepath.Join(dst, strings.TrimPrefix(p, root))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			return os.WriteFile(to, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// gopoly's stand-in monopyly package offers everything the contest AIs
// use of the real one. The AIs' sources (read with ast, at test time)
// give the names they import from monopyly and its modules, the chains
// they follow from "monopyly", the attribute names they read and the
// names their star imports must give; every one the real package
// offers, the shim offers too, constants with the same values, and
// probes of the objects' behaviour (rents, owned sets, str of a set,
// board look-ups, net worth...) give the same results.
func TestMonopylyShimAPI(t *testing.T) {
	root := peerMonopyly(t)
	script := "testdata/monopyly_api.py"
	usesJSON := runPython(t, nil, script, "uses", filepath.Join(root, "AIs"), filepath.Join(root, "SampleAIs"))
	var uses struct {
		Files   int
		Imports [][2]string
		Chains  []string
		Attrs   []string
		Names   []string
	}
	if err := json.Unmarshal(usesJSON, &uses); err != nil {
		t.Fatal(err)
	}
	if uses.Files == 0 || len(uses.Imports) == 0 || len(uses.Attrs) == 0 {
		t.Fatalf("nothing read from the AIs: %+v", uses)
	}
	type description struct {
		Imports map[string]bool
		Chains  map[string]struct {
			OK    bool
			Value any
		}
		Star    []string
		Objects map[string]map[string]any
		Probes  map[string]any
	}
	describe := func(pkgRoot string) description {
		var d description
		if err := json.Unmarshal(runPython(t, usesJSON, script, "describe", pkgRoot), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	real, shim := describe(root), describe("../sdk/python/monopyly_host/shim")

	checked := 0
	for key, ok := range real.Imports {
		checked++
		if ok && !shim.Imports[key] {
			t.Errorf("the AIs import %s; the shim does not offer it", key)
		}
	}
	for chain, r := range real.Chains {
		checked++
		if s := shim.Chains[chain]; r.OK && (!s.OK || fmt.Sprint(s.Value) != fmt.Sprint(r.Value)) {
			t.Errorf("the AIs use %s (%v); the shim gives %+v", chain, r.Value, s)
		}
	}
	used := map[string]bool{}
	for _, a := range append(uses.Attrs, uses.Names...) {
		used[a] = true
	}
	for class, attrs := range real.Objects {
		for a, v := range attrs {
			if !used[a] {
				continue
			}
			checked++
			switch s, ok := shim.Objects[class][a]; {
			case !ok:
				t.Errorf("the AIs read .%s, which Monopyly's %s has; the shim's lacks it", a, class)
			case fmt.Sprint(s) != fmt.Sprint(v):
				t.Errorf("%s.%s is %v in Monopyly, %v in the shim", class, a, v, s)
			}
		}
	}
	for _, n := range uses.Names {
		if slices.Contains(real.Star, n) {
			checked++
			if !slices.Contains(shim.Star, n) {
				t.Errorf("the AIs take %s from \"from monopyly import *\"; the shim's star import lacks it", n)
			}
		}
	}
	for probe, r := range real.Probes {
		checked++
		if a, b := fmt.Sprint(r), fmt.Sprint(shim.Probes[probe]); a != b {
			t.Errorf("probe %s:\n Monopyly %s\n     shim %s", probe, a, b)
		}
	}
	// Imports, chains, some hundred attributes, star names, probes.
	if checked < 100 {
		t.Errorf("only %d checks: the AIs' use of monopyly was not read", checked)
	}
}

// The Python of 2014 at today's interpreter: with imp gone (as in
// Python 3.12) and time.clock gone, the host's compat module lets the
// real package import, time.clock answer, and a property set format as
// its name as Python 3.3 formatted it.
func TestMonopylyCompat(t *testing.T) {
	root := peerMonopyly(t)
	var got map[string]any
	if err := json.Unmarshal(runPython(t, nil, "testdata/monopyly_api.py", "compat", "../sdk/python/monopyly_host", root), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"clock": true, "imp": true, "format": "[Brown   ]", "from": true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// The host plays an AI on the real package when it lies in a checkout
// or pkg= names one, and on gopoly's stand-in otherwise.
func TestMonopylyPackageChoice(t *testing.T) {
	python(t)
	root := peerMonopyly(t)
	for _, tc := range []struct{ bot, want string }{
		{"testdata/AIs/Trader", "gopoly's stand-in monopyly package"},
		{"pkg=" + root + " testdata/AIs/Trader", "the monopyly package of its checkout (" + filepath.Join(root, "monopyly") + ")"},
		{"pkg=" + filepath.Join(root, "monopyly") + " testdata/AIs/Trader", "the monopyly package of its checkout"},
		{filepath.Join(root, "SampleAIs", "Sample_Sophie"), "the monopyly package of its checkout (" + filepath.Join(root, "monopyly") + ")"},
	} {
		log := filepath.Join(t.TempDir(), "bot.log")
		dir := filepath.Join(t.TempDir(), "run")
		sim(t, "{max_rounds: 40, deal_protocol: sealed}", 1, "monopyly:dir="+dir+" log="+log+" "+tc.bot, "baseline", "baseline")
		got := readLog(t, log)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "the fallback answers") || strings.Contains(got, "Traceback") {
			t.Errorf("%s: want %q in a clean log:\n%s", tc.bot, tc.want, clipLog(got))
		}
	}
}

// A Monopyly AI runs in a directory of its own, never where gopoly runs:
// the one dir= names, or one under the user's cache directory.
func TestMonopylyWorkDir(t *testing.T) {
	python(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux and the BSDs
	t.Setenv("HOME", cache)           // and elsewhere
	dir := filepath.Join(t.TempDir(), "runs", "trader")
	for _, bot := range []string{"monopyly:dir=" + dir + " testdata/AIs/Trader", "monopyly:testdata/AIs/Trader"} {
		sim(t, "max_rounds: 30", 2, bot+"#TraderAI", "baseline")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "trader.txt")); strings.Count(string(got), "a game") != 2 {
		t.Errorf("dir=: trader.txt holds %q, want two games", got)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	found, _ := filepath.Glob(filepath.Join(base, "gopoly", "monopyly-runs", "*", "trader.txt"))
	if len(found) != 1 || !strings.Contains(found[0], "Trader-TraderAI-") {
		t.Errorf("without dir=, trader.txt is at %v, want one under %s", found, filepath.Join(base, "gopoly", "monopyly-runs"))
	}
	if _, err := os.Stat("trader.txt"); err == nil {
		os.Remove("trader.txt")
		t.Error("the AI wrote trader.txt where gopoly runs")
	}
}

// A contest AI that draws from Python's random plays the same game twice
// from the same seed: the host seeds random from the seat's seed
// (start.seed), so tournaments against contest AIs replay. Another seed
// for the seats alone, the board's dice unchanged, plays another game.
func TestMonopylySeeded(t *testing.T) {
	python(t)
	r := monopolytest.Rules(t, "max_rounds: 40")
	bots := []string{"monopyly:testdata/AIs/Gambler", "monopyly:testdata/AIs/Gambler", "baseline"}
	first, again, other := seededGame(t, r, 7, 7, bots...), seededGame(t, r, 7, 7, bots...), seededGame(t, r, 7, 8, bots...)
	if !bytes.Equal(first, again) {
		t.Error("the same seeds played two different games")
	}
	if bytes.Equal(first, other) {
		t.Error("other seat seeds played the same game: the AIs' random did not follow start.seed")
	}
}

// seededGame plays bots under r from seed, each seat seeded from
// seatSeed, and returns the game as JSON. It fails t if a program's seat
// needed its fallback or was retired: the game would not be the
// program's.
func seededGame(t *testing.T, r *monopoly.Rules, seed, seatSeed uint64, bots ...string) []byte {
	t.Helper()
	var agents []agent.Agent
	defer func() { agent.CloseAll(agents) }()
	for i, b := range bots {
		a, err := agent.New(b, i, agent.SeatSeed(seatSeed, i))
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	g := monopoly.New(r, len(agents), seed)
	d := agent.Driver{Agents: agents}
	if _, _, err := d.Run(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	for i, a := range agents {
		if s, ok := a.(*extbot.Seat); ok {
			if st := s.Stats(); st.TotalFallbacks > 0 || st.TotalRetirements > 0 {
				t.Fatalf("seat %d: %d fallback answers, %d retirements", i, st.TotalFallbacks, st.TotalRetirements)
			}
		}
	}
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Contest AIs from the checkout replay too. BaldrickAI proposes to buy
// random.choice(list(victim.state.properties)), a set of Monopyly's
// squares; until the host numbered them they hashed by address, and such
// a set's order changed from one process to the next. From seed 8 the
// game took 41 rounds in one run and 42 in the next (each game's seats
// are new processes; it failed in each of four runs of three pairs).
func TestMonopylyContestAIsReplay(t *testing.T) {
	root := peerMonopyly(t)
	python(t)
	r := monopolytest.Rules(t, "{}")
	bots := []string{"baseline"}
	for _, ai := range []string{"Simon Cornell#BaldrickAI", "Simon Cornell#LordMelchittAI", "Dekun Yang"} {
		bots = append(bots, "monopyly:decision=30s "+filepath.Join(root, "AIs", ai))
	}
	for range 3 {
		if first, again := seededGame(t, r, 8, 8, bots...), seededGame(t, r, 8, 8, bots...); !bytes.Equal(first, again) {
			t.Fatal("the same seed played two different games")
		}
	}
}

// Under open deals a Monopyly AI is held to the limits of its answer, as
// Monopyly holds both sides: the Trader AI accepts a proposal for its
// property with minimum_cash_wanted three times the price, so it refuses
// an offer a dollar short of that and takes one that reaches it.
func TestMonopylyOpenDealLimits(t *testing.T) {
	python(t)
	r := monopolytest.Rules(t, "")
	park := monopolytest.Square(t, r, "Park Place")
	for _, c := range []struct {
		cash int64
		want monopoly.ActionKind
	}{{3*350 - 1, monopoly.ActRejectTrade}, {3 * 350, monopoly.ActAcceptTrade}, {100, monopoly.ActRejectTrade}} {
		g := monopolytest.Position(t, r, 0, []int{1500, 1500}, monopolytest.Owned{Name: "Park Place", Owner: 1})
		ai, err := agent.New("monopyly:testdata/AIs/Trader#TraderAI", 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		o := monopoly.TradeOffer{From: 0, To: 1, GetSquares: 1 << park, GiveCash: c.cash}
		if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o}); err != nil {
			t.Fatal(err)
		}
		a := ai.Decide(g.View(1), g.Pending())
		agent.CloseAll([]agent.Agent{ai})
		if st := ai.(*extbot.Seat).Stats(); st.TotalFallbacks > 0 {
			t.Fatalf("the fallback answered")
		}
		if a.Kind != c.want {
			t.Errorf("$%d for Park Place: the AI's answer is %s, want %s", c.cash, a.Kind, c.want)
		}
	}
}

// Under raise_to_buy a contest AI pays for a purchase beyond its cash by
// the mortgages it names when told the money will be taken, as Monopyly
// asks it; naming too little gives the purchase up, and the property
// goes to auction, as in Monopyly. At auction it bids beyond its cash.
func TestMonopylyRaiseToBuy(t *testing.T) {
	python(t)
	r := monopolytest.Rules(t, "raise_to_buy: true\ndeal_protocol: sealed")
	oriental, reading, med := monopolytest.Square(t, r, "Oriental Avenue"), monopolytest.Square(t, r, "Reading Railroad"), monopolytest.Square(t, r, "Mediterranean Avenue")
	for _, c := range []struct {
		class     string
		owner     int
		mortgaged []int
	}{{"MortgagerAI", 0, []int{reading}}, {"OverreachAI", -1, nil}} {
		t.Run(c.class, func(t *testing.T) {
			g := monopolytest.Position(t, r, 0, []int{50, 1500},
				monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 0}, monopolytest.Owned{Name: "Reading Railroad", Owner: 0})
			g.ScriptDice([][2]int{{2, 4}}) // to Oriental Avenue, $100
			ai, err := agent.New("monopyly:testdata/AIs/Mortgager#"+c.class, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer agent.CloseAll([]agent.Agent{ai})
			for step := 0; g.Current() == 0 && g.Pending().Kind != monopoly.DecisionNone; step++ {
				if step > 50 {
					t.Fatal("the turn does not end")
				}
				d := g.Pending()
				a := monopoly.Action{Kind: monopoly.ActDropOut, Player: d.Player}
				switch {
				case d.Player == 0:
					a = ai.Decide(g.View(0), d)
				case d.Kind != monopoly.DecisionBid:
					t.Fatalf("seat 1 asked %s", d.Kind)
				}
				if d.Kind == monopoly.DecisionManage && g.Phase() == monopoly.PhaseAfterRoll {
					break
				}
				if err := g.Apply(a); err != nil {
					t.Fatalf("%s: %v", d.Kind, err)
				}
			}
			if st := ai.(*extbot.Seat).Stats(); st.TotalFallbacks > 0 {
				t.Fatalf("the fallback answered")
			}
			if got := g.Owner(oriental); got != c.owner {
				t.Errorf("Oriental Avenue's owner is %d, want %d", got, c.owner)
			}
			for _, sq := range []int{reading, med} {
				if want := slices.Contains(c.mortgaged, sq); g.Mortgaged(sq) != want {
					t.Errorf("%s mortgaged: %v, want %v (the AI's own choice)", r.Squares[sq].Name, g.Mortgaged(sq), want)
				}
			}
		})
	}
}

// At auction a contest AI's bid goes beyond its cash, up to what it
// could raise, and it pays by the mortgages it names.
func TestMonopylyRaiseToBuyAuction(t *testing.T) {
	python(t)
	r := monopolytest.Rules(t, "raise_to_buy: true")
	oriental, reading := monopolytest.Square(t, r, "Oriental Avenue"), monopolytest.Square(t, r, "Reading Railroad")
	g := monopolytest.Position(t, r, 1, []int{50, 1500}, monopolytest.Owned{Name: "Reading Railroad", Owner: 0})
	g.ScriptDice([][2]int{{2, 4}}) // seat 1 to Oriental Avenue, $100
	ai, err := agent.New("monopyly:testdata/AIs/Mortgager#MortgagerAI", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.CloseAll([]agent.Agent{ai})
	for step := 0; g.Owner(oriental) < 0 || g.Pending().Player == 0; step++ {
		if step > 200 {
			t.Fatal("the auction does not end")
		}
		d := g.Pending()
		var a monopoly.Action
		switch {
		case d.Player == 0:
			a = ai.Decide(g.View(0), d)
		case d.Kind == monopoly.DecisionManage:
			a = monopoly.Action{Kind: monopoly.ActContinue, Player: 1}
		case d.Kind == monopoly.DecisionBuy:
			a = monopoly.Action{Kind: monopoly.ActDecline, Player: 1}
		case d.Kind == monopoly.DecisionBid && d.Amount < 79: // seat 1 bids up to $79
			a = monopoly.Action{Kind: monopoly.ActBid, Player: 1, Arg: d.Amount + 1}
		case d.Kind == monopoly.DecisionBid:
			a = monopoly.Action{Kind: monopoly.ActDropOut, Player: 1}
		default:
			t.Fatalf("seat 1 asked %s", d.Kind)
		}
		if err := g.Apply(a); err != nil {
			t.Fatalf("%s: %v", d.Kind, err)
		}
	}
	if st := ai.(*extbot.Seat).Stats(); st.TotalFallbacks > 0 {
		t.Fatalf("the fallback answered")
	}
	if g.Owner(oriental) != 0 || !g.Mortgaged(reading) || g.Cash(0) != 150-80 {
		t.Errorf("Oriental Avenue's owner %d, Reading Railroad mortgaged %v, cash $%d; want 0, true and $70 (won at $80 with $50 and Reading's $100)",
			g.Owner(oriental), g.Mortgaged(reading), g.Cash(0))
	}
}

// An answer gopoly refuses is told to the host, which goes on playing:
// the host once kept a count under the name of the protocol's refusal
// handler (gopoly_bot.Bot.refused), so the first refusal crashed it and
// retired the AI.
func TestMonopylyHostSurvivesRefusal(t *testing.T) {
	script := `import sys
sys.path[:0] = ["../sdk/python/monopyly_host", "../sdk/python"]
import host
class AI:
    def get_name(self):
        return "ai"
h = host.Host(AI())
h.refused({"type": "refusal", "refusal": {"code": "bid_too_low"}})
print("served")`
	if out := runPython(t, nil, "-c", script); strings.TrimSpace(string(out)) != "served" {
		t.Errorf("the host after a refusal: %q", out)
	}
}
