package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/deal"
)

func newDealPlayCmd() *cobra.Command {
	var (
		policy, first, record, preset string
		seed                          uint64
	)
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play Monopoly Deal against a trained agent in the terminal",
		Long: `Plays one game against the agent of --policy (a checkpoint; or "untrained",
"random" or "risk-aware"). You see your hand, both tables and banks, and
after each agent move the agent's probabilities over the abstract actions
at its information set. Answer each decision with the number of a move;
q quits. The seed is printed so the game can be replayed, and --record
saves the game's action list for deal.Replay.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := dealConfig(preset, "")
			if err != nil {
				return err
			}
			agent, rules, err := dealAgent(policy, cfg)
			if err != nil {
				return err
			}
			var starter int // the human is player 0, the agent player 1
			switch first {
			case "human":
				starter = 0
			case "agent":
				starter = 1
			default:
				return usageErr(fmt.Errorf("deal: --first must be human or agent, got %q", first))
			}
			if !cmd.Flags().Changed("seed") {
				seed = uint64(time.Now().UnixNano())
			}
			return dealPlay(cmd.InOrStdin(), cmd.OutOrStdout(), rules, agent, seed, starter, record)
		},
	}
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "", `checkpoint file of the agent ("untrained", "random" or "risk-aware" for reference agents)`)
	f.StringVar(&first, "first", "human", "who starts: human or agent")
	f.Uint64Var(&seed, "seed", 0, "game seed (default: from the clock; printed at the start)")
	f.StringVar(&record, "record", "", "write the game's record (setup and actions) to this JSON file")
	f.StringVar(&preset, "preset", "paper", "game configuration for the reference agents (a checkpoint brings its own)")
	return cmd
}

// dealIntentLabel describes an abstract action for a person.
var dealIntentLabel = map[deal.Abstract]string{
	deal.StartNewPropertySet:  "start a new set",
	deal.AddToPropertySet:     "add to a set",
	deal.CompletePropertySet:  "complete a set",
	deal.Cash:                 "bank it",
	deal.AttemptCollectRent:   "charge rent",
	deal.JustSayNo:            "cancel the rent",
	deal.GiveOpponentCash:     "pay from the bank",
	deal.GiveOpponentProperty: "pay with a property",
	deal.Pass:                 "end your streak",
	deal.Yield:                "settle for what was paid",
	deal.Other:                "no effect (no property of that colour)",
}

// dealAgentProbabilities returns an agent's distribution at a key, if it
// can tell it.
func dealAgentProbabilities(a deal.Agent, is deal.InfoSet) ([deal.NumAbstract]float64, string) {
	switch x := a.(type) {
	case *deal.Policy:
		p, seen := x.Probabilities(is)
		if !seen {
			return p, "unseen key: uniform, so it plays a random card"
		}
		return p, "average policy; it plays the most probable"
	case *deal.RiskAware:
		return x.Probabilities(is.Mask), "risk-aware baseline"
	}
	var p [deal.NumAbstract]float64
	for _, ab := range is.Mask.Actions() {
		p[ab] = 1 / float64(is.Mask.Count())
	}
	return p, "uniform"
}

func dealPlay(in io.Reader, out io.Writer, rules *deal.Rules, agent deal.Seat, seed uint64, starter int, recordPath string) error {
	const human, bot = 0, 1
	g := deal.New(rules, seed, starter)
	rng := rand.NewPCG(seed, 0x5eed)
	rec := deal.Record{Config: rules.Config(), Seed: seed, Starter: starter}
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "Monopoly Deal: you (player 0) against the agent (player 1). Seed %d; %s.\n", seed, map[int]string{0: "you start", 1: "the agent starts"}[starter])
	fmt.Fprintf(out, "Win with %d complete sets. Each streak: up to %d plays; a game is a draw after %d turns.\n",
		rules.Config().RequiredSets, rules.PlaysPerStreak(), rules.MaxTurns())
	var legal []deal.Action
	handBefore := dealHand(&g, human)
	for !g.Over() {
		if g.ToAct() == human {
			dealShow(out, &g, human)
			legal = g.Legal(legal[:0])
			for i, a := range legal {
				ab := g.AbstractOf(a)
				fmt.Fprintf(out, "  %2d) %-32s %s (%s)\n", i+1, rules.ActionString(a), dealIntentLabel[ab], ab)
			}
			var choice deal.Action
			for {
				fmt.Fprint(out, "> ")
				if !sc.Scan() {
					fmt.Fprintln(out, "\nno more input: game abandoned")
					return dealSaveRecord(recordPath, rec)
				}
				text := strings.TrimSpace(sc.Text())
				if text == "q" || text == "quit" {
					fmt.Fprintln(out, "game abandoned")
					return dealSaveRecord(recordPath, rec)
				}
				n, err := strconv.Atoi(text)
				if err != nil || n < 1 || n > len(legal) {
					fmt.Fprintf(out, "type a number from 1 to %d (q quits)\n", len(legal))
					continue
				}
				choice = legal[n-1]
				break
			}
			if err := g.Apply(choice); err != nil {
				return err
			}
			rec.Actions = append(rec.Actions, rules.ActionString(choice))
		} else {
			is := g.InfoSet()
			probs, note := dealAgentProbabilities(agent.Agent, is)
			ab := agent.Agent.Choose(is, rng)
			a, ok := g.Resolve(ab, agent.Resolver)
			if !ok {
				return fmt.Errorf("deal: agent chose unavailable %s", ab)
			}
			if err := g.Apply(a); err != nil {
				return err
			}
			rec.Actions = append(rec.Actions, rules.ActionString(a))
			fmt.Fprintf(out, "Agent: %s (%s)\n", rules.ActionString(a), ab)
			fmt.Fprintf(out, "        policy at %s (%s):", is, note)
			type pa struct {
				a deal.Abstract
				p float64
			}
			var ps []pa
			for _, x := range is.Mask.Actions() {
				ps = append(ps, pa{x, probs[x]})
			}
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].p > ps[j].p })
			for _, x := range ps {
				fmt.Fprintf(out, " %s %.2f", x.a, x.p)
			}
			fmt.Fprintln(out)
		}
		if h := dealHand(&g, human); h != handBefore {
			if drawn := dealDrawn(rules, handBefore, h); drawn != "" {
				fmt.Fprintf(out, "You draw: %s\n", drawn)
			}
			handBefore = h
		}
	}
	res := g.Result()
	dealShow(out, &g, human)
	switch {
	case res.End == deal.EndWin && res.Winner == human:
		fmt.Fprintf(out, "You win after %d turns!\n", g.Turn())
	case res.End == deal.EndWin:
		fmt.Fprintf(out, "The agent wins after %d turns.\n", g.Turn())
	case res.End == deal.EndCap:
		fmt.Fprintf(out, "Draw: the %d-turn cap was reached.\n", g.Turn())
	default:
		fmt.Fprintln(out, "Draw: the deck and both hands are empty.")
	}
	return dealSaveRecord(recordPath, rec)
}

func dealSaveRecord(path string, rec deal.Record) error {
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	return nil
}

// dealHand is a player's hand as counts per card kind.
func dealHand(g *deal.Game, p int) [deal.MaxKinds]int {
	var h [deal.MaxKinds]int
	for k := 0; k < g.Rules().Kinds(); k++ {
		h[k] = g.Hand(p, deal.Card(k))
	}
	return h
}

// dealDrawn lists the cards gained between two hands.
func dealDrawn(r *deal.Rules, before, after [deal.MaxKinds]int) string {
	var parts []string
	for k := 0; k < r.Kinds(); k++ {
		for n := after[k] - before[k]; n > 0; n-- {
			parts = append(parts, r.CardName(deal.Card(k)))
		}
	}
	return strings.Join(parts, ", ")
}

// dealCards renders counts of card kinds ("cash:3 ×2, property:green").
func dealCards(r *deal.Rules, count func(deal.Card) int) string {
	var parts []string
	for k := 0; k < r.Kinds(); k++ {
		if n := count(deal.Card(k)); n == 1 {
			parts = append(parts, r.CardName(deal.Card(k)))
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", r.CardName(deal.Card(k)), n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// dealShow prints the table as player p sees it.
func dealShow(out io.Writer, g *deal.Game, p int) {
	v := g.View(p)
	r := v.Rules()
	who := map[int]string{p: "you", 1 - p: "the agent"}
	whose := map[int]string{p: "your", 1 - p: "the agent's"}
	respond := ""
	if _, ok := v.Response(); ok {
		respond = fmt.Sprintf(" · %s to pay", who[v.ToAct()])
	}
	fmt.Fprintf(out, "\n── turn %d · %s streak, play %d of %d%s · deck %d cards ──\n",
		v.Turn(), whose[v.Current()], v.StreakIndex()+1, r.PlaysPerStreak(), respond, v.DeckSize())
	for _, q := range []int{1 - p, p} {
		var props []string
		for c := 0; c < r.Colours(); c++ {
			if n := v.Properties(q, c); n > 0 {
				mark := ""
				if n >= r.SetSize(c) {
					mark = " complete"
				}
				props = append(props, fmt.Sprintf("%s %d/%d%s", r.ColourName(c), n, r.SetSize(c), mark))
			}
		}
		if len(props) == 0 {
			props = []string{"none"}
		}
		name := "Agent"
		if q == p {
			name = "You  "
		}
		fmt.Fprintf(out, "%s  hand %d · bank $%d (%s) · properties: %s\n", name, v.HandSize(q), v.BankValue(q),
			dealCards(r, func(c deal.Card) int { return v.Bank(q, c) }), strings.Join(props, ", "))
	}
	fmt.Fprintf(out, "Your hand: %s\n", dealCards(r, func(c deal.Card) int { return v.Hand(c) }))
	if resp, ok := v.Response(); ok {
		fmt.Fprintf(out, "%s charged %s $%d for %s rent; $%d paid so far.\n",
			strings.ToUpper(who[resp.Renter][:1])+who[resp.Renter][1:], who[1-resp.Renter], resp.Owed, r.ColourName(resp.Colour), resp.Paid)
	}
}
