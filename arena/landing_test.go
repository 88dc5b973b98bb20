package arena

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

func landing(t *testing.T, rolls int64, jail JailPolicy, workers int) LandingResult {
	t.Helper()
	res, err := Landing(context.Background(), LandingConfig{Rules: monopoly.DefaultRules(), Rolls: rolls, Jail: jail, Seed: 3, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestLandingSumsToRolls(t *testing.T) {
	for _, rolls := range []int64{1, 63, 64, 65, 10_001} {
		res := landing(t, rolls, JailLeave, 2)
		var n int64
		for _, c := range res.Counts {
			n += c
		}
		if n+res.InJail != rolls {
			t.Errorf("%d rolls: counted %d squares + %d in jail", rolls, n, res.InJail)
		}
		p := res.InJailProbability()
		for sq := range res.Counts {
			p += res.Probability(sq)
		}
		if math.Abs(p-1) > 1e-9 {
			t.Errorf("%d rolls: probabilities sum to %v", rolls, p)
		}
	}
}

func TestLandingIndependentOfWorkers(t *testing.T) {
	for _, jail := range []JailPolicy{JailLeave, JailStay} {
		a := landing(t, 50_000, jail, 1)
		b := landing(t, 50_000, jail, 2)
		if !slices.Equal(a.Counts, b.Counts) || a.InJail != b.InJail {
			t.Errorf("jail %s: 1 worker %v +%d, 2 workers %v +%d", jail, a.Counts, a.InJail, b.Counts, b.InJail)
		}
	}
}

// TestLandingKnownFigures checks the measurement against the figures of
// the standard Markov-chain analysis of the board: nobody ends a roll on
// Go To Jail, and Illinois Avenue, the most landed-on street, takes 3.19%
// of rolls under the leave-jail policy. With 400,000 rolls the standard
// error of Illinois is about 0.028 points, so 0.15 points is over 5 of
// them.
func TestLandingKnownFigures(t *testing.T) {
	r := monopoly.DefaultRules()
	res := landing(t, 400_000, JailLeave, 0)
	goToJail, illinois := -1, -1
	for i, s := range r.Squares {
		switch s.Name {
		case "Go To Jail":
			goToJail = i
		case "Illinois Avenue":
			illinois = i
		}
	}
	t.Logf("Illinois %.3f%%, in jail %.3f%%, just visiting %.3f%%", 100*res.Probability(illinois), 100*res.InJailProbability(), 100*res.Probability(r.JailSquare))
	if p := res.Probability(goToJail); p != 0 {
		t.Errorf("Go To Jail: probability %v, want 0", p)
	}
	if p := res.InJailProbability(); p < 0.03 || p > 0.05 {
		t.Errorf("in jail: probability %v, want about 0.04", p)
	}
	if p := 100 * res.Probability(illinois); math.Abs(p-3.19) > 0.15 {
		t.Errorf("Illinois Avenue: %.3f%%, want 3.19%% ± 0.15", p)
	}
	if p := res.Probability(r.JailSquare); p < 0.015 || p > 0.03 {
		t.Errorf("just visiting: probability %v, want about 0.022", p)
	}
}

// TestLandingStayJailsLonger: a player who rolls for doubles spends up to
// three rolls in jail, so more rolls end there than with the leave policy.
func TestLandingStayJailsLonger(t *testing.T) {
	leave := landing(t, 100_000, JailLeave, 0)
	stay := landing(t, 100_000, JailStay, 0)
	if stay.InJail <= leave.InJail*3/2 {
		t.Errorf("in jail: stay %d rolls, leave %d", stay.InJail, leave.InJail)
	}
}

func TestParseJailPolicy(t *testing.T) {
	for _, p := range []JailPolicy{JailLeave, JailStay} {
		q, err := ParseJailPolicy(p.String())
		if err != nil || q != p {
			t.Errorf("%s: got %v, %v", p, q, err)
		}
	}
	if _, err := ParseJailPolicy("pay"); err == nil {
		t.Error("pay: no error")
	}
}

// A cancelled measurement stops after the chunks under way and counts
// the chunks before the first one not finished: the same rolls, for as
// many chunks, as their games give.
func TestLandingCancelled(t *testing.T) {
	const quota = 2000
	r := monopoly.DefaultRules()
	for _, workers := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		var chunks atomic.Int32
		res, err := Landing(ctx, LandingConfig{Rules: r, Rolls: LandingChunks * quota, Seed: 3, Workers: workers, Progress: func(int64) {
			if chunks.Add(1) == 3 {
				cancel()
			}
		}})
		cancel()
		k := res.Rolls / quota
		if !errors.Is(err, context.Canceled) || res.Rolls%quota != 0 || k < 3 || k >= LandingChunks {
			t.Fatalf("%d workers: %d rolls, %v; want whole chunks, at least 3 and not all, and the context's error", workers, res.Rolls, err)
		}
		want := make([]int64, len(r.Squares))
		var inJail int64
		for i := range int(k) {
			n, err := monopoly.LandingCounts(r, true, GameSeed(3, i), quota, want)
			if err != nil {
				t.Fatal(err)
			}
			inJail += n
		}
		if !slices.Equal(res.Counts, want) || res.InJail != inJail {
			t.Errorf("%d workers: the %d chunks kept count %v + %d in jail; played alone, %v + %d", workers, k, res.Counts, res.InJail, want, inJail)
		}
	}
}

// The speed die shortens the game by moving players onto properties: Mr.
// Monopoly ends a third of its rolls on the next unowned property (all of
// them, as the landing players own nothing), and the Bus and triples take
// the plain move. So rolls end on properties more often, and on Chance
// (from which Mr. Monopoly always moves on) less. Over 400,000 rolls with
// seed 3 the shares are measured to about ±0.2 points (binomial standard
// error under 0.1); the margins below are several times that.
func TestLandingSpeedDie(t *testing.T) {
	r, err := monopoly.DefaultRules().WithOverrides("test", []byte("speed_die: true"))
	if err != nil {
		t.Fatal(err)
	}
	ownable := func(res LandingResult) float64 {
		p := 0.0
		for sq := range res.Counts {
			if r.Squares[sq].Ownable() {
				p += res.Probability(sq)
			}
		}
		return p
	}
	chance := func(res LandingResult) float64 { return res.Probability(7) + res.Probability(22) + res.Probability(36) }
	plain := landing(t, 400_000, JailLeave, 2)
	speed, err := Landing(context.Background(), LandingConfig{Rules: r, Rolls: 400_000, Jail: JailLeave, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ownable squares: %.2f%% plain, %.2f%% with the speed die; Chance %.2f%%, %.2f%%",
		100*ownable(plain), 100*ownable(speed), 100*chance(plain), 100*chance(speed))
	if ownable(speed) < ownable(plain)+0.05 {
		t.Errorf("rolls ending on a property: %.3f with the speed die, %.3f without; want at least 5 points more", ownable(speed), ownable(plain))
	}
	if chance(speed) > chance(plain)-0.005 {
		t.Errorf("rolls ending on Chance: %.3f with the speed die, %.3f without; want at least half a point less", chance(speed), chance(plain))
	}
}
