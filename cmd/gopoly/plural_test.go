package main

import (
	"strings"
	"testing"
)

// One worker is "1 worker" in what the commands print.
func TestWorkersPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 workers"}, {1, "1 worker"}, {2, "2 workers"}} {
		if got := plural(c.n, "worker"); got != c.want {
			t.Errorf("plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	stdout, stderr, code := inProcess("sim", "--games", "2", "--workers", "1", "--max-rounds", "20")
	if code != 0 || !strings.Contains(stdout, " CPU on 1 worker\n") {
		t.Errorf("sim --workers 1: exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}
