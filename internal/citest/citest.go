// Package citest decides what a test does when a real component it needs
// (PostgreSQL, Chromium, Slurm, python3) is missing: on a developer's
// machine it skips, saying why; on CI (.ci/run sets CI) it fails, since a
// skip there would pass with the component untested.
package citest

import (
	"os"
	"testing"
)

// CI reports whether the tests run on CI.
func CI() bool { return os.Getenv("CI") != "" }

// Missing stops tb for want of a component: it fails with onCI on CI
// (what .ci/run must provide) and skips with elsewhere otherwise (what is
// left untested, and how to provide it).
func Missing(tb testing.TB, onCI, elsewhere string) {
	tb.Helper()
	if CI() {
		tb.Fatal(onCI)
	}
	tb.Skip(elsewhere)
}

// PostgresDSN is the DSN of the test PostgreSQL server
// ($GOPOLY_TEST_POSTGRES, which .ci/postgres prints); without one the
// test is Missing it, untested names what then goes untested.
func PostgresDSN(tb testing.TB, untested string) string {
	tb.Helper()
	dsn := os.Getenv("GOPOLY_TEST_POSTGRES")
	if dsn == "" {
		Missing(tb, "GOPOLY_TEST_POSTGRES not set on CI: .ci/run must start PostgreSQL (.ci/postgres)",
			"GOPOLY_TEST_POSTGRES not set: "+untested+" untested (eval \"$(bash .ci/postgres start)\" starts a server)")
	}
	return dsn
}
