package wire_test

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
	"github.com/gopoly/gopoly/wire/wiretest"
)

var benchTrade = monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1,
	Offer: &monopoly.TradeOffer{From: 1, To: 2, GiveSquares: 1<<37 | 1<<39, GiveCash: 100, GetSquares: 1 << 1, GiveCards: 1}}

func BenchmarkEncodeAction(b *testing.B) {
	r := monopoly.DefaultRules()
	for _, bc := range []struct {
		name string
		a    monopoly.Action
	}{
		{"build", monopoly.Action{Kind: monopoly.ActBuild, Player: 1, Arg: 39}},
		{"trade", benchTrade},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 256)
			for b.Loop() {
				var err error
				if buf, err = wire.AppendAction(buf[:0], r, bc.a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeAction(b *testing.B) {
	r := monopoly.DefaultRules()
	trade, err := wire.EncodeAction(r, benchTrade)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"build", []byte(`{"kind":"build","square":39}`)},
		{"build_by_name", []byte(`{"kind":"build","square":"Boardwalk"}`)},
		{"trade", trade},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := wire.DecodeAction(r, 1, bc.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNewOptions(b *testing.B) {
	g := wiretest.TradePosition(b)
	v := g.View(g.Pending().Player)
	b.ReportAllocs()
	for b.Loop() {
		wire.NewOptions(v)
	}
}

func BenchmarkNewSnapshot(b *testing.B) {
	g := wiretest.TradePosition(b)
	p := g.Pending().Player
	for _, bc := range []struct {
		name   string
		viewer int
	}{{"decider", p}, {"spectator", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				wire.NewSnapshot(g, bc.viewer, names)
			}
		})
	}
}

func BenchmarkDigestAdd(b *testing.B) {
	d := wire.NewDigest()
	e := monopoly.Event{Kind: monopoly.EvRent, Player: 1, Other: 2, Square: 39, Amount: 2000}
	b.ReportAllocs()
	for b.Loop() {
		d.Add(e)
	}
}
