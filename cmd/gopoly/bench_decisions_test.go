package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchDecisions: gopoly bench decisions prints a row per decision
// kind and a leaderboard whose second seat is compared with the first,
// the same figures with --json; bad flags are a usage error.
func TestBenchDecisions(t *testing.T) {
	out, errOut, code := cliRun(t, "bench", "decisions", "--seats", "baseline,random", "--rollouts", "2", "--horizon", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"positions v2 (108)", "trade_proposal (12)", "sealed_limit (12)", "all (108)", "leaderboard:", " over "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	out, errOut, code = cliRun(t, "bench", "decisions", "--seats", "random", "--rollouts", "2", "--horizon", "3", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var got struct {
		Version int `json:"version"`
		Seats   []struct {
			Seat      string `json:"seat"`
			Decisions int    `json:"decisions"`
			Rows      []struct {
				Kind string `json:"kind"`
				N    int    `json:"n"`
			} `json:"rows"`
		} `json:"seats"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Version != 2 || len(got.Seats) != 1 || got.Seats[0].Decisions < 108 || len(got.Seats[0].Rows) != 10 {
		t.Errorf("--json: %+v", got)
	}
	for _, bad := range [][]string{{"--rollouts", "0"}, {"--seats", ""}, {"--seats", "nobody"}} {
		_, errOut, code := cliRun(t, append([]string{"bench", "decisions"}, bad...)...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, %q; want 2 with a message", bad, code, errOut)
		}
	}
}
