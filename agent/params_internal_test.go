package agent

import "testing"

// parseRange takes "[lo, hi]" with lo <= hi and nothing else, so that a
// mistyped range tag stops the package from loading.
func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		tag    string
		lo, hi float64
		ok     bool
	}{
		{"[0, 1]", 0, 1, true},
		{"[-1,10]", -1, 10, true},
		{"[ 2.5 , 2.5 ]", 2.5, 2.5, true},
		{"0, 1]", 0, 0, false},
		{"[0, 1", 0, 0, false},
		{"0, 1", 0, 0, false},
		{"[0 1]", 0, 0, false},
		{"[1, 0]", 0, 0, false},
		{"[a, 1]", 0, 0, false},
		{"", 0, 0, false},
	} {
		lo, hi, ok := parseRange(tc.tag)
		if ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("parseRange(%q) = %v, %v, %v; want %v, %v, %v", tc.tag, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}
