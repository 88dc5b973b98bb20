package main

import (
	"flag"
	"fmt"
	"math/bits"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
)

var classify func(g *monopoly.Game, e monopoly.Event, seat int, hist map[string]int)

func main() {
	hist := map[string]int{}
	defer func() { fmt.Println(hist) }()
	bot := flag.String("bot", "planning", "")
	games := flag.Int("games", 100, "")
	flag.Parse()
	r, _ := monopoly.DefaultRules().WithOverrides("x", []byte("max_rounds: 500"))
	type st struct{ props, accMe, accByMe, accOthers, propMe, rejMe, buys, declines, jailpay, jailroll, builds, wins, firstMonoMe, firstMonoOther, winFirst, noBuild, winNoBuild, tradeMono, tradeMonoWin int }
	var s st
	for i := 0; i < *games; i++ {
		gs := arena.GameSeed(1, i)
		g := monopoly.New(r, 4, gs)
		g.Record(true)
		seat := i % 4
		agents := make([]agent.Agent, 4)
		for q := range 4 {
			name := "baseline"
			if q == seat {
				name = *bot
			}
			agents[q], _ = agent.New(name, q, arena.SeatSeed(gs, q))
		}
		if _, err := arena.Play(g, agents); err != nil {
			panic(err)
		}
		if g.Winner() == seat {
			s.wins++
		}
		first := -1
		owned := [4]uint64{}
		for _, e := range g.Events() {
			switch e.Kind {
			case monopoly.EvTradeProposed:
				if int(e.Player) == seat {
					s.propMe++
				}
			case monopoly.EvTradeAccepted:
				if int(e.Player) == seat {
					classify(g, e, seat, hist)
					s.accByMe++
				} else if int(e.Other) == seat {
					s.accMe++
				} else {
					s.accOthers++
				}
			case monopoly.EvTradeRejected:
				if int(e.Player) == seat {
					s.rejMe++
				}
			case monopoly.EvBuy:
				if int(e.Player) == seat {
					s.buys++
				}
			case monopoly.EvDecline:
				if int(e.Player) == seat {
					s.declines++
				}
			case monopoly.EvBuild:
				if int(e.Player) == seat {
					s.builds++
				}
				if first < 0 {
					first = int(e.Player)
				}
			}
		}
		_ = owned
		_ = bits.OnesCount64
		built := false
		tm := false
		for _, e := range g.Events() {
			if e.Kind == monopoly.EvBuild && int(e.Player) == seat {
				built = true
			}
			if e.Kind == monopoly.EvTradeAccepted && int(e.Player) == seat {
				tm = true
			}
		}
		if tm {
			s.tradeMono++
			if g.Winner() == seat {
				s.tradeMonoWin++
			}
		}
		if !built {
			s.noBuild++
			if g.Winner() == seat {
				s.winNoBuild++
			}
		}
		if first == seat {
			if g.Winner() == seat {
				s.winFirst++
			}
			s.firstMonoMe++
		} else if first >= 0 {
			s.firstMonoOther++
		}
	}
	fmt.Printf("%+v\n", s)
}

func init() {
	classify = func(g *monopoly.Game, e monopoly.Event, seat int, hist map[string]int) {
		o := e.Trade
		r := g.Rules()
		kind := ""
		if o.GetSquares != 0 {
			kind += fmt.Sprintf("get%d", bits.OnesCount64(o.GetSquares))
		}
		if o.GiveSquares != 0 {
			kind += fmt.Sprintf("give%d", bits.OnesCount64(o.GiveSquares))
		}
		if o.GiveCash > 0 {
			kind += "+pay"
		}
		if o.GetCash > 0 {
			kind += "+ask"
		}
		_ = r
		hist[kind]++
	}
}
