// Package monopolytest provides helpers for the tests of packages that
// play Monopoly.
package monopolytest

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// Rules returns the default rules with the YAML override document doc,
// failing tb when the rules refuse it.
func Rules(tb testing.TB, doc string) *monopoly.Rules {
	tb.Helper()
	r, err := monopoly.DefaultRules().WithOverrides("test rules", []byte(doc))
	if err != nil {
		tb.Fatalf("rules %q: %v", doc, err)
	}
	return r
}
