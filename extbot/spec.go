package extbot

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the default fallback
)

// Defaults of a seat's options.
const (
	DefaultFallback = "baseline"
	DefaultDecision = 5 * time.Second
	DefaultGame     = 5 * time.Minute
	DefaultStrikes  = 3
	// DefaultStartup is the least time a program has to start and answer
	// start with ready: an interpreter on a loaded machine takes seconds
	// to start, which must not retire a program that then answers each
	// decision in milliseconds.
	DefaultStartup = 10 * time.Second
)

// Spec is a parsed seat: what to connect to and the options. Its text
// form is the bot name after the scheme: options as KEY=VALUE words, then
// the target.
//
//	exec:[OPTIONS] COMMAND ARGS...   a command, split as a shell would (quotes, backslashes), run without a shell
//	tcp:[OPTIONS] HOST:PORT          a program listening there
//	monopyly:[OPTIONS] PATH[#CLASS]  a Monopyly AI: its package directory or .py file, and the class if there are several
//
// Options: fallback=BOT (default baseline), decision=DURATION (per
// decision, default 5s), startup=DURATION (to start and answer start
// with ready, default the larger of 10s and decision), game=DURATION
// (thinking time per game, default 5m; start-up not counted), strikes=N (failures that retire the program for the game,
// default 3), log=FILE (append the program's stderr and the seat's
// warnings there instead of the slog default logger), dir=DIR (exec:
// and monopyly: run the program there, made if need be, so that
// relative paths in an exec: command are taken from DIR; monopyly:
// seats default to a directory of their own under the user's cache
// directory), pkg=DIR (monopyly: the Monopyly checkout whose monopyly
// package the AI imports, when it does not lie in one).
type Spec struct {
	Name     string        // the whole bot name, "scheme:arg"
	Scheme   string        // exec, tcp or monopyly
	Target   string        // the command line, address or path, as given
	Argv     []string      // exec: the command split into words
	Fallback string        // the bot that answers when the program does not
	Decision time.Duration // budget per decision
	Startup  time.Duration // budget of the handshake: start to ready, the program's launch included
	Game     time.Duration // budget per game
	Strikes  int           // failures before retirement
	Log      string        // file for stderr and warnings; "" for the default logger
	Dir      string        // the program's working directory, absolute; "" for the default
	Pkg      string        // monopyly: the checkout holding the monopyly package, absolute; "" to look above the AI
}

// ParseSpec reads the part of a bot name after "scheme:".
func ParseSpec(scheme, arg string) (Spec, error) {
	s := Spec{Name: scheme + ":" + arg, Scheme: scheme, Fallback: DefaultFallback, Decision: DefaultDecision, Game: DefaultGame, Strikes: DefaultStrikes}
	rest := strings.TrimSpace(arg)
	for {
		word, after, _ := strings.Cut(rest, " ")
		key, val, ok := strings.Cut(word, "=")
		if !ok || !isOption(key) {
			break
		}
		if err := s.set(key, val); err != nil {
			return Spec{}, err
		}
		rest = strings.TrimSpace(after)
	}
	if s.Startup == 0 {
		s.Startup = max(DefaultStartup, s.Decision)
	}
	if rest == "" {
		return Spec{}, fmt.Errorf("extbot: %s: no %s given", scheme, map[string]string{"exec": "command", "tcp": "address", "monopyly": "path"}[scheme])
	}
	s.Target = rest
	switch scheme {
	case "exec":
		argv, err := splitCommand(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("extbot: exec: %w", err)
		}
		s.Argv = argv
	case "tcp":
		if _, port, err := net.SplitHostPort(rest); err != nil || port == "" {
			return Spec{}, fmt.Errorf("extbot: tcp: %q is not HOST:PORT", rest)
		}
	}
	return s, nil
}

var optionKeys = []string{"fallback", "decision", "startup", "game", "strikes", "log", "dir", "pkg"}

func isOption(key string) bool {
	for _, k := range optionKeys {
		if k == key {
			return true
		}
	}
	return false
}

func (s *Spec) set(key, val string) error {
	bad := func(want string) error {
		return fmt.Errorf("extbot: option %s=%q: want %s", key, val, want)
	}
	switch key {
	case "fallback":
		if strings.Contains(val, ":") {
			return bad("a registered bot (a program cannot stand in for a program)")
		}
		if _, err := agent.Lookup(val); err != nil {
			return fmt.Errorf("extbot: option fallback: %w", err)
		}
		s.Fallback = val
	case "decision", "startup", "game":
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			return bad("a positive duration such as 500ms or 2s")
		}
		switch key {
		case "decision":
			s.Decision = d
		case "startup":
			s.Startup = d
		default:
			s.Game = d
		}
	case "strikes":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > 1000 {
			return bad("a whole number from 1 to 1000")
		}
		s.Strikes = n
	case "log":
		if val == "" {
			return bad("a file name")
		}
		s.Log = val
	case "dir":
		if s.Scheme == "tcp" {
			return errors.New("extbot: option dir= is for exec: and monopyly: seats: a tcp: program runs where it was started")
		}
		dir, err := filepath.Abs(val)
		if val == "" || err != nil {
			return bad("a directory")
		}
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			return bad("a directory, not a file")
		}
		s.Dir = dir
	case "pkg":
		if s.Scheme != "monopyly" {
			return fmt.Errorf("extbot: option pkg= is for monopyly: seats, not %s ones", s.Scheme)
		}
		root, err := monopylyCheckout(val)
		if err != nil {
			return fmt.Errorf("extbot: option pkg=%q: %w", val, err)
		}
		s.Pkg = root
	}
	return nil
}

// splitCommand splits a command line into words as a POSIX shell would,
// for quotes and backslashes only: no variables, globs or pipes (run
// "sh -c '...'" for those).
func splitCommand(line string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		quote rune // the open quote, or 0
		esc   bool
	)
	for _, r := range line {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				esc = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, in = true, true
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 || esc {
		return nil, errors.New("unterminated quote or trailing backslash in the command")
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("no command given")
	}
	return words, nil
}

func init() {
	for _, sc := range []struct{ name, doc string }{
		{"exec", "exec:[OPTIONS] CMD ARGS  a program speaking the bot protocol over its stdin and stdout"},
		{"tcp", "tcp:[OPTIONS] HOST:PORT  a program speaking the bot protocol, listening there"},
		{"monopyly", "monopyly:[OPTIONS] PATH  a Monopyly contest AI (PlayerAIBase), through the Python host"},
	} {
		agent.RegisterScheme(sc.name, agent.Scheme{Doc: sc.doc, Program: true, Resolve: func(arg string) (agent.Bot, error) {
			spec, err := ParseSpec(sc.name, arg)
			if err != nil {
				return agent.Bot{}, err
			}
			return spec.Bot()
		}})
	}
}

// Bot is the registry entry of a seat of this spec: the fallback's
// defaults and knobs (parameters given to the seat go to its fallback),
// made as a Seat.
func (s Spec) Bot() (agent.Bot, error) {
	fb, err := agent.Lookup(s.Fallback)
	if err != nil {
		return agent.Bot{}, err
	}
	return agent.Bot{
		Doc:      "a program speaking the bot protocol (" + s.Scheme + "), with " + s.Fallback + " as its fallback",
		Defaults: fb.Defaults,
		Reads:    fb.Reads,
		Outside:  true,
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent {
			return newSeat(s, fb, p, seat, seed)
		},
	}, nil
}
