package deal

import (
	"slices"
	"strings"
	"testing"
)

// Every Situation key of a play set and of an answer set reads back as
// itself; keys with missing, unknown or misplaced facts are refused.
func TestSituationKeys(t *testing.T) {
	for _, m := range []Mask{1<<Pass | 1<<Cash | 1<<AttemptCollectRent, 1<<JustSayNo | 1<<GiveOpponentCash} {
		n := factCount(factsOf(m))
		for f := 0; f < n; f++ {
			is := InfoSet{Player: 1, Streak: 1, Mask: m, Abs: Situation, Feature: uint16(f)}
			back, err := ParseInfoSet(is.String())
			if err != nil || back != is {
				t.Fatalf("%s: %v %v", is, back, err)
			}
		}
	}
	if n := Situation.featureSpace(); n != 864 || Intent.featureSpace() != 1 {
		t.Fatalf("feature space %d", n)
	}
	good := "0@IntentSituationAbstraction@0:Cash,Pass@mine=1,theirs=0,bank=3-5,exposed=4+,rent=0"
	if _, err := ParseInfoSet(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"0@IntentSituationAbstraction@0:Cash,Pass",                                                      // no facts
		"0@IntentStateAbstraction@0:Cash,Pass@mine=1,theirs=0,bank=3-5,exposed=4+,rent=0",               // facts on an intent key
		"0@IntentSituationAbstraction@0:Cash,Pass@mine=1,theirs=0,bank=3-5,exposed=4+",                  // one missing
		"0@IntentSituationAbstraction@0:Cash,Pass@mine=1,theirs=0,bank=3-5,exposed=4+,due=1,covered=no", // an answer's facts on a play
		"0@IntentSituationAbstraction@0:Cash,Pass@mine=3,theirs=0,bank=3-5,exposed=4+,rent=0",           // no such bucket
		"0@IntentSituationAbstraction@0:Cash,Pass@theirs=0,mine=1,bank=3-5,exposed=4+,rent=0",           // out of order
	} {
		if _, err := ParseInfoSet(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// The facts of a built position, for a play and for the answer to rent.
func TestSituationFacts(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:brown", 2) // a complete set, rent 2
	put(t, g, "props", 0, "property:green", 1) // rent 2
	put(t, g, "hand", 0, "rent:brown", 1)
	put(t, g, "hand", 0, "rent:pink", 1) // no pink owned: no rent
	put(t, g, "bank", 0, "cash:3", 1)
	put(t, g, "bank", 1, "cash:1", 1)
	put(t, g, "props", 1, "property:pink", 1) // exposed: 1 + 2
	put(t, g, "hand", 1, "cash:3", 2)         // hidden: counts for nothing
	want := "0@IntentSituationAbstraction@0:AttemptCollectRent,Pass,Other@mine=1,theirs=0,bank=3-5,exposed=1-3,rent=1-2"
	if got := g.Key(Situation).String(); got != want {
		t.Fatalf("play key\n%s, want\n%s", got, want)
	}
	if g.Key(Intent) != g.InfoSet() {
		t.Fatal("the intent key has facts")
	}
	// Player 1 owes 2 with $1 in its bank; player 0 has $3 and $6 of
	// property on show. The exchange is still the first play's.
	mustApply(t, g, "play rent:brown")
	want = "1@IntentSituationAbstraction@0:GiveOpponentCash,GiveOpponentProperty@mine=0,theirs=1,bank=1-2,exposed=4+,due=2,covered=no"
	if got := g.Key(Situation).String(); got != want {
		t.Fatalf("answer key\n%s, want\n%s", got, want)
	}
	mustApply(t, g, "pay bank cash:1")
	want = "1@IntentSituationAbstraction@0:GiveOpponentProperty@mine=0,theirs=1,bank=0,exposed=4+,due=1,covered=no"
	if got := g.Key(Situation).String(); got != want {
		t.Fatalf("answer key after paying $1\n%s, want\n%s", got, want)
	}
}

// A Situation key is made of what its player can see: redealing the
// opponent's hidden hand (and the deck) never changes it.
func TestSituationKeySeesNoHiddenCards(t *testing.T) {
	randomGames(t, Paper(), 200, func(g *Game, _ []Action) {
		if g.Over() {
			return
		}
		is := g.Key(Situation)
		for s := uint64(0); s < 3; s++ {
			c := *g
			c.Reseed(s)
			c.ResampleHidden(g.ToAct())
			if c.Key(Situation) != is {
				t.Fatalf("key %s changed when the hidden cards were redealt", is)
			}
		}
	})
}

// A Situation policy plays an unmet key like the met keys that share its
// intent key (their visit-weighted mean), and a key whose intent key was
// never met uniformly.
func TestSituationPolicyFallsBackToItsIntentKey(t *testing.T) {
	tab := NewTablesOf(Situation, 2, 4)
	m := Mask(1<<Pass | 1<<Cash | 1<<StartNewPropertySet)
	met := func(f uint16, p [NumAbstract]float64, visits int) {
		s := tab.Slot(InfoSet{Mask: m, Abs: Situation, Feature: f})
		tab.push(s, &p)
		tab.visits[s] = int64(visits)
	}
	met(3, [NumAbstract]float64{Cash: 1}, 3)
	met(7, [NumAbstract]float64{StartNewPropertySet: 1}, 1)
	pol := NewPolicy(tab, Smart)
	if p, seen := pol.Probabilities(InfoSet{Mask: m, Abs: Situation, Feature: 7}); !seen || p[StartNewPropertySet] != 1 {
		t.Fatalf("met key %v %v", p, seen)
	}
	p, seen := pol.Probabilities(InfoSet{Mask: m, Abs: Situation, Feature: 11})
	if !seen || p[Cash] != 0.75 || p[StartNewPropertySet] != 0.25 {
		t.Fatalf("unmet key %v %v, want the 3:1 mean of the met ones", p, seen)
	}
	if pol.Choose(InfoSet{Mask: m, Abs: Situation, Feature: 11}, newRNG(1)) != Cash {
		t.Fatal("unmet key did not play its intent key's favourite")
	}
	other := InfoSet{Player: 1, Mask: m, Abs: Situation, Feature: 3}
	if p, seen := pol.Probabilities(other); seen || p != uniformOf[maskIndex[m]] {
		t.Fatalf("unmet intent key %v %v", p, seen)
	}
	if s := pol.Seat(); s.Abstraction != Situation || s.Resolver != Smart {
		t.Fatalf("seat %+v", s)
	}
}

// A checkpoint of one abstraction refuses keys of the other, naming the
// field; the Situation checkpoint names its abstraction.
func TestSituationCheckpointKeys(t *testing.T) {
	p := quickParams()
	p.Abstraction = Situation
	good := string(checkpointBytes(t, train(t, Small(), p, BatchOrdered, 2, 4)))
	if !strings.Contains(good, `"abstraction_cls": "IntentSituationAbstraction"`) || !strings.Contains(good, "@mine=") {
		t.Fatal("checkpoint does not name its abstraction or facts")
	}
	bad := strings.Replace(good, `"cf_reach_prob_counter": {`, `"cf_reach_prob_counter": {"0@IntentStateAbstraction@0:Pass": 1,`, 1)
	if _, err := ParseCheckpoint([]byte(bad)); err == nil || !strings.Contains(err.Error(), "cf_reach_prob_counter") || !strings.Contains(err.Error(), "IntentStateAbstraction") {
		t.Fatalf("intent key in a Situation checkpoint: %v", err)
	}
	bad = strings.Replace(good, `"abstraction_cls": "IntentSituationAbstraction"`, `"abstraction_cls": "situation"`, 1)
	if _, err := ParseCheckpoint([]byte(bad)); err == nil || !strings.Contains(err.Error(), "abstraction_cls") {
		t.Fatalf("flag name as abstraction_cls: %v", err)
	}
}

// A worker's tables return to the snapshot they were copied from by
// undoing a game's updates: the same tables as a fresh copy, keys met in
// the game forgotten.
func TestRevertUndoesAGame(t *testing.T) {
	p := quickParams()
	p.Abstraction = Situation
	tr := train(t, Small(), p, BatchOrdered, 2, 8)
	w := tr.newWorker(0)
	w.sync()
	w.play(8)
	if len(w.tab.changed) == 0 || w.tab.Slots() <= tr.tab.Slots() {
		t.Fatalf("a game changed %d slots and met %d new keys: the test proves nothing", len(w.tab.changed), w.tab.Slots()-tr.tab.Slots())
	}
	w.sync()
	fresh := tr.tab.Clone()
	a, b := w.tab, fresh
	same := slices.Equal(a.slotOf, b.slotOf) && slices.Equal(a.keyOf, b.keyOf) && slices.Equal(a.regretSum, b.regretSum) &&
		slices.Equal(a.regretN, b.regretN) && slices.Equal(a.buf, b.buf) && slices.Equal(a.bufLen, b.bufLen) &&
		slices.Equal(a.bufHead, b.bufHead) && slices.Equal(a.avg, b.avg) && slices.Equal(a.updates, b.updates) &&
		slices.Equal(a.visits, b.visits) && slices.Equal(a.reach, b.reach) && len(a.changed) == 0
	if !same {
		t.Fatal("reverted tables differ from a fresh copy")
	}
}
