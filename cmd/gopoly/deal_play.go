package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
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
		reveal                        bool
	)
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play Monopoly Deal against a trained agent in the terminal",
		Long: `Plays one game against the agent of --policy (a checkpoint; or "untrained",
"random" or "risk-aware"). You see your hand, both tables and banks, and
each agent move in words with the probability its policy gave it
(--reveal also shows the other moves it weighed, which names cards in its
hidden hand: for studying the agent, not for a fair game). Answer each decision
with the number of a move; ? shows the rules, q quits. Colour is used
when stdout is a terminal and NO_COLOR is not set. The seed is printed so
the game can be replayed, and --record saves the game's action list for
deal.Replay.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			agent, rules, err := dealAgent(policy, preset)
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
			out := cmd.OutOrStdout()
			return dealPlay(cmd.InOrStdin(), out, rules, agent, seed, starter, record, reveal, dealPainter(useColor(out)))
		},
	}
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "", `checkpoint file of the agent ("bundled" for the trained policy gopoly carries; "untrained", "random" or "risk-aware" for reference agents)`)
	f.StringVar(&first, "first", "human", "who starts: human or agent")
	f.Uint64Var(&seed, "seed", 0, "game seed (default: from the clock; printed at the start)")
	f.StringVar(&record, "record", "", "write the game's record (setup and actions) to this JSON file")
	f.BoolVar(&reveal, "reveal", false, "also show the moves the agent weighed and did not play (they name cards in its hidden hand)")
	f.StringVar(&preset, "preset", "paper", "game configuration for the reference agents (a checkpoint brings its own)")
	return cmd
}

// dealPainter adds ANSI styles to the terminal game when colour is on.
type dealPainter bool

// ANSI styles of the terminal game, beside those of play.go.
const (
	dealYouStyle   = "\x1b[1;36m"
	dealAgentStyle = "\x1b[1;35m"
)

// paint returns s in the given style when colour is on, else s.
func (on dealPainter) paint(style, s string) string {
	if !on {
		return s
	}
	return style + s + ansiReset
}

// dealAgentMove describes the agent's move, with the probability its
// policy gave it. With reveal, the other intents it had follow, named by
// the card the agent would have played for each: cards of its hidden
// hand, so only when asked.
func dealAgentMove(g *deal.Game, seat deal.Seat, mv deal.AgentMove, reveal bool, paint dealPainter) string {
	is, ab, a, probs, note := mv.InfoSet, mv.Abstract, mv.Action, mv.Probs, mv.Note
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", paint.paint(dealAgentStyle, "Agent:"), paint.paint(ansiBold, deal.Describe(g, a)))
	alts := is.Mask.Actions()
	if len(alts) == 1 {
		b.WriteString(" — its only move")
		return b.String()
	}
	fmt.Fprintf(&b, " — %s", deal.Percent(probs[ab]))
	if !reveal {
		return b.String()
	}
	alts = slices.DeleteFunc(alts, func(x deal.Abstract) bool { return x == ab })
	slices.SortStableFunc(alts, func(x, y deal.Abstract) int { return cmp.Compare(probs[y], probs[x]) })
	// Moves the policy never plays are only counted: a trained policy
	// has many, and listing them hides the real alternatives.
	var parts []string
	never := 0
	for _, x := range alts {
		if probs[x] == 0 {
			never++
		} else if alt, ok := g.Resolve(x, seat.Resolver); ok {
			parts = append(parts, deal.Describe(g, alt)+" "+deal.Percent(probs[x]))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, "; %s", paint.paint(ansiDim, "alternatives: "+strings.Join(parts, ", ")))
	}
	switch never {
	case 0:
	case 1:
		fmt.Fprintf(&b, " %s", paint.paint(ansiDim, "(1 other move at 0%)"))
	default:
		fmt.Fprintf(&b, " %s", paint.paint(ansiDim, fmt.Sprintf("(%d other moves at 0%%)", never)))
	}
	if note != "" {
		fmt.Fprintf(&b, " %s", paint.paint(ansiDim, "("+note+")"))
	}
	return b.String()
}

// dealHelp prints the rules of the rules' game, for the ? command.
func dealHelp(out io.Writer, r *deal.Rules) {
	cfg := r.Config()
	var sets []string
	for i := 0; i < r.Colours(); i++ {
		var rents []string
		for n := 1; n <= r.SetSize(i); n++ {
			rents = append(rents, deal.Money(r.RentFor(i, n)))
		}
		sets = append(sets, fmt.Sprintf("%s %d (rent %s)", r.ColourName(i), r.SetSize(i), strings.Join(rents, "/")))
	}
	fmt.Fprintf(out, `How to play
  Win with %d complete property sets. Cards for a set: %s.
  Your streak: draw %d cards (%d if your hand is empty), then make up to %d plays.
    A cash card goes to your bank; a property to your table. A rent card
    charges the agent for a colour you own, more the more of it you have.
    Pass ends the streak early.
  Charged rent, you pay card by card from your bank or with properties (no change
    is given) until the rent is covered; a Just Say No cancels it, and with
    nothing to pay you yield.
  Every play (a whole rent exchange counting as one) is a turn: the game is a
  draw after %d turns, or when the deck and both hands are empty.
  The agent's line shows its move, how likely its policy made it, and the card
  it would have played for each other choice.
Commands: the number of a move plays it; ? shows this help; q quits.
`, r.Config().RequiredSets, strings.Join(sets, ", "), cfg.DrawPerStreak, cfg.InitialHand, r.PlaysPerStreak(), r.MaxTurns())
}

func dealPlay(in io.Reader, out io.Writer, rules *deal.Rules, agent deal.Seat, seed uint64, starter int, recordPath string, reveal bool, paint dealPainter) error {
	const human, bot = deal.Person, deal.Opponent
	m := deal.NewMatch(rules, agent, seed, starter)
	g := m.Game()
	save := func() error {
		if recordPath == "" {
			return nil
		}
		return m.Save(recordPath)
	}
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "%s Seed %d; %s.\n", paint.paint(ansiBold, "Monopoly Deal: you against the agent."), seed,
		map[int]string{human: "you start", bot: "the agent starts"}[starter])
	fmt.Fprintf(out, "Win with %d complete sets. Each streak: up to %d plays; a game is a draw after %d turns.\n",
		rules.Config().RequiredSets, rules.PlaysPerStreak(), rules.MaxTurns())
	fmt.Fprintln(out, "Type the number of a move; ? shows the rules, q quits.")
	var legal []deal.Action
	handBefore := dealHand(g, human)
	// The person's hand grows only when their streak starts, that is
	// after a move of the agent's (or at its last one), so it is looked
	// at once the agent has played.
	drawn := func() {
		if h := dealHand(g, human); h != handBefore {
			if d := dealDrawn(rules, handBefore, h); d != "" {
				fmt.Fprintf(out, "You draw: %s\n", d)
			}
			handBefore = h
		}
	}
	for {
		err := m.AgentPlays(func(g *deal.Game, mv deal.AgentMove) {
			// The turn the move is played in, as the headers count.
			fmt.Fprintf(out, "turn %d  %s\n", g.Turn()+1, dealAgentMove(g, agent, mv, reveal, paint))
		})
		if err != nil {
			return err
		}
		drawn()
		if g.Over() {
			break
		}
		dealShow(out, g, human, paint)
		legal = g.Legal(legal[:0])
		for i, a := range legal {
			fmt.Fprintf(out, "  %2d) %s\n", i+1, deal.Describe(g, a))
		}
		var choice deal.Action
		for {
			fmt.Fprint(out, "> ")
			if !sc.Scan() {
				fmt.Fprintln(out, "\nno more input: game abandoned")
				return save()
			}
			text := strings.TrimSpace(sc.Text())
			switch text {
			case "q", "quit":
				fmt.Fprintln(out, "game abandoned")
				return save()
			case "?", "h", "help":
				dealHelp(out, rules)
				continue
			}
			n, err := strconv.Atoi(text)
			if err != nil || n < 1 || n > len(legal) {
				fmt.Fprintf(out, "type a number from 1 to %d (? shows the rules, q quits)\n", len(legal))
				continue
			}
			choice = legal[n-1]
			break
		}
		if err := m.Play(choice); err != nil {
			return err
		}
		drawn()
	}
	res := g.Result()
	dealShow(out, g, human, paint)
	switch {
	case res.End == deal.EndWin && res.Winner == human:
		fmt.Fprintln(out, paint.paint(ansiBold, fmt.Sprintf("You win after %d turns!", g.Turn())))
	case res.End == deal.EndWin:
		fmt.Fprintln(out, paint.paint(ansiBold, fmt.Sprintf("The agent wins after %d turns.", g.Turn())))
	case res.End == deal.EndCap:
		fmt.Fprintf(out, "Draw: the %d-turn cap was reached.\n", g.Turn())
	default:
		fmt.Fprintln(out, "Draw: the deck and both hands are empty.")
	}
	return save()
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
			parts = append(parts, deal.CardName(r, deal.Card(k)))
		}
	}
	return strings.Join(parts, ", ")
}

// dealShow prints the table as player p sees it, under a header that
// numbers the turn being played (the game counts those played).
func dealShow(out io.Writer, g *deal.Game, p int, paint dealPainter) {
	v := g.View(p)
	r := v.Rules()
	who := map[int]string{p: "you", 1 - p: "the agent"}
	whose := map[int]string{p: "your", 1 - p: "the agent's"}
	state := fmt.Sprintf("%s streak, play %d of %d", whose[v.Current()], v.StreakIndex()+1, r.PlaysPerStreak())
	if _, ok := v.Response(); ok {
		state = fmt.Sprintf("%s streak · %s to pay", whose[v.Current()], who[v.ToAct()])
	}
	turn := fmt.Sprintf("turn %d", v.Turn()+1)
	if g.Over() {
		turn = fmt.Sprintf("after turn %d", v.Turn())
		state = "game over"
	}
	fmt.Fprintf(out, "\n%s\n", paint.paint(ansiBold, fmt.Sprintf("── %s · %s · deck %d cards ──", turn, state, v.DeckSize())))
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
		name := paint.paint(dealAgentStyle, "Agent")
		if q == p {
			name = paint.paint(dealYouStyle, "You  ")
		}
		fmt.Fprintf(out, "%s  hand %d · bank %s (%s) · properties: %s\n", name, v.HandSize(q),
			paint.paint(ansiMoney, deal.Money(v.BankValue(q))),
			deal.Cards(r, func(c deal.Card) int { return v.Bank(q, c) }), strings.Join(props, ", "))
	}
	fmt.Fprintf(out, "Your hand: %s\n", deal.Cards(r, func(c deal.Card) int { return v.Hand(c) }))
	if resp, ok := v.Response(); ok {
		fmt.Fprintf(out, "%s charged %s %s for %s rent; %s paid so far.\n",
			strings.ToUpper(who[resp.Renter][:1])+who[resp.Renter][1:], who[1-resp.Renter], deal.Money(resp.Owed),
			r.ColourName(resp.Colour), deal.Money(resp.Paid))
	}
}
