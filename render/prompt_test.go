package render_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// Every decision of the golden fixtures reads as a sentence that names
// what the decision is about: the square, the amount, the other party,
// the offer's squares.
func TestDecisionText(t *testing.T) {
	files, err := filepath.Glob("../wire/testdata/decisions/*.json") // the wire's golden decisions
	if err != nil || len(files) < 8 {
		t.Fatalf("%d fixtures (%v)", len(files), err)
	}
	names := []string{"Ann", "Bob", "Cat", "Dan"}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx struct {
			Decision wire.Decision `json:"decision"`
		}
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		d := fx.Decision
		text := render.Decision(d, names)
		var want []string
		switch d.Kind {
		case monopoly.DecisionBuy, monopoly.DecisionMortgagedTransfer:
			want = []string{d.SquareName, fmt.Sprintf("$%d", d.Amount)}
		case monopoly.DecisionBid:
			want = []string{d.SquareName}
			if d.Counterparty >= 0 {
				want = append(want, fmt.Sprintf("$%d", d.Amount), names[d.Counterparty])
			}
		case monopoly.DecisionRaiseCash:
			want = []string{fmt.Sprintf("$%d", d.Amount), "bankruptcy"}
			if d.Reason == monopoly.ReasonPurchase {
				want = []string{fmt.Sprintf("buying %s for $%d", d.SquareName, d.Amount)}
			}
		case monopoly.DecisionTradeResponse:
			want = append([]string{names[d.Counterparty]}, d.Offer.Give.SquareNames...)
			want = append(want, d.Offer.Get.SquareNames...)
			if d.Offer.Sealed && d.Offer.Hidden {
				want = append(want, "sealed")
			}
		case monopoly.DecisionManage:
			want = []string{fmt.Sprintf("%d proposal", d.ProposalsLeft)}
		case monopoly.DecisionJail:
			want = []string{"jail"}
		case monopoly.DecisionNone:
			want = []string{"Nothing"}
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q does not say %q", f, text, w)
			}
		}
	}
}

// A side lists its squares, then its cash, then its cards; an empty one
// is "nothing".
func TestHoldings(t *testing.T) {
	for _, tc := range []struct {
		squares, cards []string
		cash, want     string
	}{
		{nil, nil, "", "nothing"},
		{[]string{}, []string{}, "", "nothing"},
		{[]string{"Boardwalk", "Park Place"}, []string{"chance"}, "$100",
			"Boardwalk, Park Place, $100, a Get Out of Jail Free card (Chance)"},
		{nil, []string{"chance", "community_chest"}, "cash up to $50",
			"cash up to $50, a Get Out of Jail Free card (Chance), a Get Out of Jail Free card (Community Chest)"},
	} {
		if got := render.Holdings(tc.squares, tc.cash, tc.cards); got != tc.want {
			t.Errorf("Holdings(%q, %q, %q) = %q, want %q", tc.squares, tc.cash, tc.cards, got, tc.want)
		}
	}
}
