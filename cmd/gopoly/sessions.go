package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	service "github.com/gopoly/gopoly/table"
)

// sessionInfo is one stored session as gopoly sessions --json lists it.
type sessionInfo struct {
	ID string `json:"id"`
	service.Listed
	Status string `json:"status"`
}

func newSessionsCmd() *cobra.Command {
	var (
		sf     storeFlags
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the stored sessions, newest first",
		Long: `Lists the sessions in the store, the most recently played first: id,
when it was last played, its seats, its answers so far, its round and
where it stands, and the session it was forked from, if any. --json
prints them as a JSON array.

gopoly replay, fork and export take a session's id; gopoly sessions
delete removes sessions.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			m, done, err := sf.open(cmd.Context(), cmd)
			if err != nil {
				return err
			}
			defer done()
			list, err := service.List(cmd.Context(), m, true, nil)
			if err != nil {
				return fmt.Errorf("sessions: %w", err)
			}
			infos := make([]sessionInfo, len(list))
			for i, r := range list {
				infos[i] = sessionInfo{ID: r.ID, Listed: r, Status: r.Status.Summary}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, infos)
			}
			if len(infos) == 0 {
				_, err := fmt.Fprintf(out, "no sessions in %s\n", sf.describe())
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tUPDATED\tSEATS\tANSWERS\tROUND\tFORKED FROM\tSTATUS")
			for _, s := range infos {
				seats := make([]string, len(s.Seats))
				for i, seat := range s.Seats {
					seats[i] = seat.Describe()
				}
				parent := cmp.Or(s.Parent, "-")
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"),
					strings.Join(seats, ", "), s.Entries, s.Round, parent, s.Status)
			}
			return tw.Flush()
		},
	}
	sf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as a JSON array")
	cmd.AddCommand(newSessionsDeleteCmd())
	return cmd
}

func newSessionsDeleteCmd() *cobra.Command {
	var sf storeFlags
	cmd := &cobra.Command{
		Use:   "delete ID...",
		Short: "Delete stored sessions",
		Long: `Deletes the sessions with the ids given, with their logs. If any id names no
session, nothing is deleted.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			ctx := cmd.Context()
			m, done, err := sf.open(ctx, cmd)
			if err != nil {
				return err
			}
			defer done()
			recs, err := m.List(ctx)
			if err != nil {
				return fmt.Errorf("sessions delete: %w", err)
			}
			stored := map[string]bool{}
			for _, r := range recs {
				stored[r.ID] = true
			}
			for _, id := range ids {
				if !stored[id] {
					return sf.lookupErr(cmd, "session", id, session.ErrNotFound)
				}
			}
			for _, id := range ids {
				if err := m.Delete(ctx, id); err != nil && !errors.Is(err, session.ErrNotFound) {
					return fmt.Errorf("sessions delete: %w", err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), "deleted session", id)
			}
			return nil
		},
	}
	sf.register(cmd)
	return cmd
}

// lookupErr is how a command reports err from looking up the kind
// ("session", "config") id: an unknown id is bad input, with a hint; nil
// stays nil.
func (f *storeFlags) lookupErr(cmd *cobra.Command, kind, id string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, session.ErrNotFound):
		return usageErr(fmt.Errorf("%s: no %s %s in %s; gopoly %ss lists them", cmdName(cmd), kind, id, f.describe(), kind))
	}
	return fmt.Errorf("%s: %w", cmdName(cmd), err)
}

// openSession opens the store with manager options mo and session id in
// it; done releases the store.
func (f *storeFlags) openSession(cmd *cobra.Command, id string, mo session.Options) (m *session.Manager, s *session.Session, done func(), err error) {
	m, done, err = f.openWith(cmd.Context(), cmd, mo)
	if err != nil {
		return nil, nil, nil, err
	}
	if s, err = m.Open(cmd.Context(), id); err != nil {
		done()
		return nil, nil, nil, f.lookupErr(cmd, "session", id, err)
	}
	return m, s, done, nil
}

// checkAt refuses an --at outside the answers of s (bad input).
func checkAt(cmd *cobra.Command, s *session.Session, at int) error {
	if n := s.Status().Entries; at < 0 || at > n {
		return usageErr(fmt.Errorf("%s: --at %d: session %s has answers 0 to %d", cmdName(cmd), at, s.ID(), n))
	}
	return nil
}

// seatLabel names who plays a seat in the text log: its bot, or the
// kind of player it waits for.
func seatLabel(seat session.Seat) string {
	if seat.Kind == session.SeatBot {
		return seat.Bot
	}
	return string(seat.Kind)
}

func newReplayCmd() *cobra.Command {
	var (
		sf               storeFlags
		at               int
		thoughts, asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "replay ID",
		Short: "Show a stored session move by move",
		Long: `Replays a stored session from the start to its answer --at (default: the
last) and prints it as gopoly play does, then where the game stands
there: the final standings if it is over, else whose decision it is and
the players ranked by net worth.

The game is shown as a spectator sees it; --thoughts also shows the
players' private thoughts and the cash limits of sealed offers. --json
prints the events as JSON lines instead, as the session's history gives
them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, s, done, err := sf.openSession(cmd, args[0], session.Options{Research: thoughts})
			if err != nil {
				return err
			}
			defer done()
			if !cmd.Flags().Changed("at") {
				at = s.Status().Entries
			}
			if err := checkAt(cmd, s, at); err != nil {
				return err
			}
			token := ""
			if thoughts {
				token = s.Tokens().Research
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			if asJSON {
				err = replayJSON(out, s, token, at)
			} else {
				err = replayText(out, s, token, at, useColor(cmd.OutOrStdout()))
			}
			if err != nil {
				return fmt.Errorf("replay: %w", err)
			}
			return out.Flush()
		},
	}
	sf.register(cmd)
	f := cmd.Flags()
	f.IntVar(&at, "at", 0, "replay the first `N` answers (default: all of them)")
	f.BoolVar(&thoughts, "thoughts", false, "also show the players' private thoughts and sealed cash limits")
	f.BoolVar(&asJSON, "json", false, "print the events as JSON lines")
	return cmd
}

// replayJSON writes the events of the first at answers of s as JSON
// lines, as the token's holder sees them.
func replayJSON(w io.Writer, s *session.Session, token string, at int) error {
	evs, _, err := s.History(token, 0, 0)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	for _, e := range evs {
		if e.Entry >= at {
			break
		}
		if err := enc.Encode(e.Event); err != nil {
			return err
		}
	}
	return nil
}

// replayText writes the first at answers of s as the text log of gopoly
// play, as the token's holder sees them, and where the game stands then.
func replayText(w io.Writer, s *session.Session, token string, at int, color bool) error {
	setup := s.Setup()
	names := setup.Names()
	labels := make([]string, len(setup.Seats))
	for i, seat := range setup.Seats {
		labels[i] = seatLabel(seat)
	}
	log := newTextPlayLog(w, s.Rules(), names, labels, setup.Seed, color)
	var end *monopoly.Game
	k := newRoundKeeper(len(names))
	err := s.Walk(token, at, func(g *monopoly.Game, entry int, evs []monopoly.Event) {
		log.events(g, evs, k.note(evs))
		if entry == at-1 { // g is the walk's own, changed after fn returns
			end = g.Clone()
		}
	})
	if err != nil {
		return err
	}
	st := standings(end, names, labels, setup.Seed, k.outRound)
	if end.Over() {
		log.standings(st)
		return nil
	}
	title := fmt.Sprintf("── After answer %d of %d ", at, s.Status().Entries)
	fmt.Fprintf(w, "\n%s\n", log.paint(ansiBold, title+strings.Repeat("─", max(0, 60-len([]rune(title))))))
	if p := end.Decider(); p >= 0 {
		fmt.Fprintf(w, "Round %d, turn %d: %s (%s) to decide %s\n", end.Round(), end.Turn(), log.names[p], labels[p], end.Pending().Kind)
	}
	fmt.Fprintf(w, "%4s  %-6s %-10s %8s %8s %10s  %s\n", "rank", "player", "plays", "cash", "props", "net worth", "status")
	for _, p := range st.Players {
		status := ""
		if p.Bankrupt {
			status = fmt.Sprintf("bankrupt in round %d", p.OutRound)
		}
		row := fmt.Sprintf("%4d  %s %-10s %s %8d %s  %s", p.Rank, log.paint(seatColors[p.Seat], fmt.Sprintf("%-6s", p.Name)), p.Bot,
			log.paint(ansiMoney, fmt.Sprintf("%8s", fmt.Sprintf("$%d", p.Cash))), p.Properties,
			log.paint(ansiMoney, fmt.Sprintf("%10s", fmt.Sprintf("$%d", p.NetWorth))), status)
		fmt.Fprintln(w, strings.TrimRight(row, " "))
	}
	return nil
}

func newForkCmd() *cobra.Command {
	var (
		sf    storeFlags
		at    int
		seats string
	)
	cmd := &cobra.Command{
		Use:   "fork ID --at N",
		Short: "Start a new session from a stored one's answer N",
		Long: `Stores a new session that starts where session ID stood after its first N
answers, to be played on from there with gopoly play --resume. --seats
changes who plays: a list of every seat, such as human,shark,professor
(human, or a bot's name); without it the seats stay as they were. The
session forked from is not changed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("at") {
				return usageErr(errors.New("fork: --at is needed: the number of answers to fork after"))
			}
			m, src, done, err := sf.openSession(cmd, args[0], session.Options{})
			if err != nil {
				return err
			}
			defer done()
			if err := checkAt(cmd, src, at); err != nil {
				return err
			}
			var list []session.Seat
			if cmd.Flags().Changed("seats") {
				if list, err = session.ParseSeats(seats); err != nil {
					return usageErr(fmt.Errorf("fork: --seats: %w", err))
				}
				if n := len(src.Setup().Seats); len(list) != n {
					return usageErr(fmt.Errorf("fork: --seats %q: %d seats; session %s has %d: list every seat", seats, len(list), src.ID(), n))
				}
			}
			s, err := m.Fork(cmd.Context(), src.ID(), at, list)
			if err != nil {
				return exitErr(fmt.Errorf("fork: %w", err))
			}
			resume := "gopoly play --resume " + s.ID()
			if f := sf.flags(); f != "" {
				resume += " " + f
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "session %s: forked from %s after answer %d; %s\ncontinue it with: %s\n",
				s.ID(), src.ID(), at, s.Status().Summary, resume)
			return err
		},
	}
	sf.register(cmd)
	cmd.Flags().IntVar(&at, "at", 0, "fork after the first `N` answers of the session")
	cmd.Flags().StringVar(&seats, "seats", "", "who plays each seat in the fork, such as human,shark,professor (default: the same)")
	return cmd
}

func newExportCmd() *cobra.Command {
	var (
		sf   storeFlags
		path string
	)
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Write a stored session as one JSON document",
		Long: `Writes session ID, its setup and its whole log of answers, as one JSON
document that gopoly import reads back: to stdout, or to the file -o
names. Players' thoughts are kept; seat tokens are not. The document is
signed with the key in the data directory (export.key), so that an
import here can tell it was not changed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, s, done, err := sf.openSession(cmd, args[0], session.Options{})
			if err != nil {
				return err
			}
			defer done()
			data, err := s.Export()
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			data = append(data, '\n')
			if path == "" {
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			if err := os.WriteFile(path, data, 0o666); err != nil {
				return usageErr(fmt.Errorf("export: -o: %w", err)) // an output that cannot be written is bad input
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "session %s: exported to %s\n", s.ID(), path)
			return err
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVarP(&path, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func newImportCmd() *cobra.Command {
	var (
		sf    storeFlags
		trust bool
	)
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Store a session that gopoly export wrote",
		Long: `Reads a session exported by gopoly export from FILE (- for stdin), checks
that it replays to the game it recorded, every bot answering as logged,
and stores it: under its own id unless the store has a session of that id
already, else under a new one. Its waiting seats get new tokens.

The export must carry the signature of this data directory's key: a file
changed after it was exported, or exported elsewhere, is refused. --trust
imports it anyway, if it still replays; the session then says it was
imported trusted (in gopoly sessions, and in its status everywhere).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			var data []byte
			var err error
			if name == "-" {
				name = "stdin"
				data, err = io.ReadAll(cmd.InOrStdin())
			} else {
				data, err = os.ReadFile(name)
			}
			if err != nil {
				return usageErr(fmt.Errorf("import: %w", err))
			}
			m, done, err := sf.open(cmd.Context(), cmd)
			if err != nil {
				return err
			}
			defer done()
			var opts []session.ImportOption
			if trust {
				opts = append(opts, session.Trust())
			}
			s, err := m.Import(cmd.Context(), data, opts...)
			if errors.Is(err, session.ErrSignature) {
				err = fmt.Errorf("%w (import it with --trust only if you trust where it came from)", err)
			}
			if err != nil {
				return usageErr(fmt.Errorf("import %s: %w", name, err))
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "session %s: imported from %s; %s\n", s.ID(), name, s.Status().Summary)
			return err
		},
	}
	sf.register(cmd)
	cmd.Flags().BoolVar(&trust, "trust", false, "import an export whose signature does not check out (changed, or exported elsewhere), marked as trusted")
	return cmd
}

// exitErr gives a failure of the table service its exit code, the one
// place the terminal maps table.Code: what the caller got wrong (a bad
// setup or argument, a game that is not there, a refused token or
// answer) exits 2, the rest 1.
func exitErr(err error) error {
	if err == nil || service.Classify(err).Code == service.CodeInternal {
		return err
	}
	return usageErr(err)
}
