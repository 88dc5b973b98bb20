package arena

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
)

// Detail is how much an experiment keeps of each game.
type Detail int

// Detail levels, from least to most.
const (
	// DetailSummary keeps each game's outcome: winner, length, seating.
	DetailSummary Detail = iota
	// DetailStats adds every seat's behaviour metrics (SeatMetrics).
	DetailStats
	// DetailFull adds a trace of every turn, words included.
	DetailFull
)

var detailNames = [...]string{"summary", "stats", "full"}

// String returns the detail level's name in specs.
func (d Detail) String() string {
	if d >= 0 && int(d) < len(detailNames) {
		return detailNames[d]
	}
	return fmt.Sprintf("Detail(%d)", int(d))
}

// ParseDetail reads a detail level by name.
func ParseDetail(s string) (Detail, error) {
	if i := slices.Index(detailNames[:], s); i >= 0 {
		return Detail(i), nil
	}
	return 0, fmt.Errorf("arena: unknown detail %q (known: %s)", s, strings.Join(detailNames[:], ", "))
}

// DefaultExperimentRounds is the round limit of an experiment's games
// unless its rules set max_rounds (0 there: no limit).
const DefaultExperimentRounds = 500

// SeedRange is the seeds of an experiment's games: game j of every
// variant is seeded with Start + j*Step, so variants meet the same dice
// and cards (common random numbers).
type SeedRange struct {
	Start uint64 `json:"start"`
	Count int    `json:"count"`
	Step  uint64 `json:"step"`
}

// Seed returns the seed of game j.
func (r SeedRange) Seed(j int) uint64 { return r.Start + uint64(j)*r.Step }

// Variant is one arm of an experiment: who plays, under which rules.
type Variant struct {
	Name  string
	Rules *monopoly.Rules
	// Seats are the players in their listed order; a seat's index is how
	// summaries name it, wherever it sat.
	Seats []Seat
	// Rotate seats the players of game j from seat j mod len(Seats) on,
	// so no one gains from playing first.
	Rotate bool

	params []map[string]any // per seat: its overrides as written, for summaries
}

// Seating returns, for game j, the seat that plays at each position
// (position p is taken by seat (p + j) mod n when rotating).
func (v *Variant) Seating(j int) []int {
	n := len(v.Seats)
	out := make([]int, n)
	for p := range out {
		out[p] = v.seatAt(j, p)
	}
	return out
}

func (v *Variant) seatAt(j, p int) int {
	if !v.Rotate {
		return p
	}
	n := len(v.Seats)
	return (p + j%n) % n
}

// Experiment is a parsed experiment spec: variants played on a common
// range of seeds. Game k of the whole run is game k / len(Variants) of
// variant k mod len(Variants), so that a run stopped part way has played
// every variant on the same seeds.
type Experiment struct {
	Name        string
	Description string
	Seeds       SeedRange
	Detail      Detail
	Variants    []Variant
	// File and Source are the spec's file name and text, copied into
	// the output directory.
	File   string
	Source []byte

	fingerprint string
}

// Games returns the number of games of the whole run.
func (e *Experiment) Games() int { return e.Seeds.Count * len(e.Variants) }

// Game returns which variant and which of its games game k of the run
// is.
func (e *Experiment) Game(k int) (variant, j int) { return k % len(e.Variants), k / len(e.Variants) }

// ShardLayout is the version of the way games are dealt to shards,
// recorded in run.json: a directory laid out otherwise cannot be resumed
// or merged, since its games are not those its shard now plays.
// Layout 1 (not recorded) gave game k of the run to shard k mod N,
// which with as many shards as variants gave each shard one variant;
// layout 2 deals seeds (ShardGame).
const ShardLayout = 2

// ShardGames returns how many games shard i of n plays: every variant on
// each seed j with j mod n = i.
func (e *Experiment) ShardGames(i, n int) int {
	if i >= e.Seeds.Count {
		return 0
	}
	return (e.Seeds.Count - i + n - 1) / n * len(e.Variants)
}

// ShardGame returns game k of the run that is game m of shard i of n.
// Shards are dealt seeds rather than games, so that each plays every
// variant (and the shards take about as long whatever the variants
// cost) and keeps a seed's games under all variants together, as the
// paired comparisons of common random numbers want them: game m of the
// shard is variant m mod V on its seed number m / V.
func (e *Experiment) ShardGame(i, n, m int) int {
	nv := len(e.Variants)
	return (i+m/nv*n)*nv + m%nv
}

// Fingerprint identifies what the experiment plays: two specs with the
// same fingerprint play the same games (comments, layout and the
// description do not count; the rules count in full, so a change in the
// default rules is a different experiment).
func (e *Experiment) Fingerprint() string { return e.fingerprint }

// experimentFile is the spec as written.
type experimentFile struct {
	Name        string        `yaml:"name"`
	Description string        `yaml:"description"`
	Seeds       *seedsFile    `yaml:"seeds"`
	Detail      string        `yaml:"detail"`
	Rules       yaml.Node     `yaml:"rules"`
	Variants    []variantFile `yaml:"variants"`
}

type seedsFile struct {
	Start uint64  `yaml:"start"`
	Count *int    `yaml:"count"` // required: nil when left out
	Step  *uint64 `yaml:"step"`
}

type variantFile struct {
	Name   string    `yaml:"name"`
	Seats  []string  `yaml:"seats"`
	Params yaml.Node `yaml:"params"`
	Rotate bool      `yaml:"rotate"`
	Rules  yaml.Node `yaml:"rules"`
}

// safeName is what experiment and variant names may hold: they name
// directories.
var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// maxGames bounds a run.
const maxGames = 1_000_000_000

// LoadExperiment reads and parses an experiment spec file.
func LoadExperiment(path string) (*Experiment, error) {
	data, err := readSpec(path)
	if err != nil {
		return nil, err
	}
	return ParseExperiment(path, data)
}

// readSpec reads a spec file (an experiment's or a tuning's). One too
// large to be a spec is refused, as Decode would, without being read
// whole.
func readSpec(path string) ([]byte, error) {
	data, err := strictyaml.ReadFile(path)
	var se *strictyaml.Error
	if err != nil && !errors.As(err, &se) {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return data, err
}

// specDoc is a spec decoded: its file and the line each key was set at,
// for errors that point at the field at fault.
type specDoc struct {
	file string
	pos  strictyaml.Positions
}

// decodeSpec decodes the spec data of file strictly into f.
func decodeSpec(file string, data []byte, f any) (specDoc, error) {
	d := specDoc{file: file, pos: strictyaml.Positions{}}
	return d, strictyaml.Decode(file, data, f, d.pos)
}

// errAt is an error about field, at the line that set it.
func (d specDoc) errAt(field, format string, args ...any) error {
	return d.pos.Errorf(d.file, field, format, args...)
}

// checkName refuses a spec without a name, or with one that cannot name
// the directory its runs are kept in.
func (d specDoc) checkName(name string) error {
	switch {
	case name == "":
		return d.errAt("name", "is required")
	case !safeName.MatchString(name):
		return d.errAt("name", "%q: use letters, digits, '.', '_' and '-' (it names a directory)", name)
	}
	return nil
}

// ParseExperiment parses an experiment spec (YAML); file names it in
// errors, which are *strictyaml.Error with the line and field at fault.
//
//	name: personalities
//	seeds: {start: 1, count: 1000, step: 1}
//	detail: stats                  # summary | stats | full
//	rules: {max_rounds: 300}       # overrides of the default rules
//	variants:
//	  - name: all-four
//	    seats: [shark, professor, hustler, turtle]
//	    rotate: true               # seat order rotates from game to game
//	    params:                    # seat (or all) -> parameter overrides
//	      all: {cash_reserve: {mean: 250, std: 50}}
//	      0: {cash_reserve: 300}
//	    rules: {auctions: false}   # this variant's own overrides
func ParseExperiment(file string, data []byte) (*Experiment, error) {
	var f experimentFile
	doc, err := decodeSpec(file, data, &f)
	if err != nil {
		return nil, err
	}
	errAt := doc.errAt
	e := &Experiment{Name: f.Name, Description: f.Description, File: file, Source: data}
	if err := doc.checkName(f.Name); err != nil {
		return nil, err
	}
	if f.Seeds == nil {
		return nil, errAt("seeds", "is required: {start, count, step}")
	}
	if f.Seeds.Count == nil {
		return nil, errAt("seeds.count", "is required: how many games each variant plays")
	}
	e.Seeds = SeedRange{Start: f.Seeds.Start, Count: *f.Seeds.Count, Step: 1}
	if f.Seeds.Step != nil {
		e.Seeds.Step = *f.Seeds.Step
	}
	if e.Seeds.Count < 1 {
		return nil, errAt("seeds.count", "must be at least 1, got %d", e.Seeds.Count)
	}
	if e.Seeds.Step < 1 {
		return nil, errAt("seeds.step", "must be at least 1: every game needs a seed of its own")
	}
	// Seeds are uint64: a range past 2^64-1 would wrap around to small
	// seeds, and with a large step give later games the seeds of earlier
	// ones.
	over, span := bits.Mul64(uint64(e.Seeds.Count-1), e.Seeds.Step)
	if _, carry := bits.Add64(e.Seeds.Start, span, 0); over != 0 || carry != 0 {
		return nil, errAt("seeds", "start %d + (count %d - 1) × step %d is past %d: the seeds would wrap around 2^64",
			e.Seeds.Start, e.Seeds.Count, e.Seeds.Step, uint64(math.MaxUint64))
	}
	e.Detail = DetailStats
	if f.Detail != "" {
		d, err := ParseDetail(f.Detail)
		if err != nil {
			return nil, errAt("detail", "unknown detail %q (known: %s)", f.Detail, strings.Join(detailNames[:], ", "))
		}
		e.Detail = d
	}
	base, err := experimentRules()
	if err != nil {
		return nil, err
	}
	if base, err = overlayRules(file, base, &f.Rules, "rules"); err != nil {
		return nil, err
	}
	if len(f.Variants) == 0 {
		return nil, errAt("variants", "at least one variant is required")
	}
	if len(f.Variants) > maxGames/e.Seeds.Count {
		return nil, errAt("seeds.count", "%d games in each of %d variants: more than %d", e.Seeds.Count, len(f.Variants), maxGames)
	}
	canon := canonExperiment{Name: e.Name, Seeds: e.Seeds, Detail: e.Detail.String()}
	seen := map[string]bool{}
	for vi, vf := range f.Variants {
		at := fmt.Sprintf("variants[%d]", vi)
		switch {
		case vf.Name == "":
			return nil, errAt(at+".name", "is required")
		case !safeName.MatchString(vf.Name):
			return nil, errAt(at+".name", "%q: use letters, digits, '.', '_' and '-' (it names a directory)", vf.Name)
		case seen[vf.Name]:
			return nil, errAt(at+".name", "%q names two variants", vf.Name)
		}
		seen[vf.Name] = true
		v := Variant{Name: vf.Name, Rotate: vf.Rotate}
		if n := len(vf.Seats); n < 2 || n > monopoly.MaxPlayers {
			return nil, errAt(at+".seats", "needs 2 to %d seats, got %d", monopoly.MaxPlayers, n)
		}
		for si, bot := range vf.Seats {
			if !agent.Known(bot) {
				return nil, errAt(fmt.Sprintf("%s.seats[%d]", at, si), "unknown bot %q (known: %s)", bot, strings.Join(agent.Names(), ", "))
			}
			v.Seats = append(v.Seats, Seat{Bot: bot})
		}
		params, err := parseSeatParams(file, &vf.Params, at+".params", v.Seats)
		if err != nil {
			return nil, err
		}
		if v.Rules, err = overlayRules(file, base, &vf.Rules, at+".rules"); err != nil {
			return nil, err
		}
		rules, err := json.Marshal(v.Rules)
		if err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		v.params = make([]map[string]any, len(v.Seats))
		for s := range v.Seats {
			// What the seat plays with: the overrides for all, and its own
			// on top.
			for _, key := range []string{"all", strconv.Itoa(s)} {
				p, _ := params[key].(map[string]any)
				for name, x := range p {
					if v.params[s] == nil {
						v.params[s] = map[string]any{}
					}
					v.params[s][name] = x
				}
			}
		}
		canon.Variants = append(canon.Variants, canonVariant{Name: v.Name, Seats: vf.Seats, Rotate: v.Rotate, Params: params, Rules: rules})
		e.Variants = append(e.Variants, v)
	}
	c, err := json.Marshal(canon)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	sum := sha256.Sum256(c)
	e.fingerprint = hex.EncodeToString(sum[:])
	return e, nil
}

// canonExperiment is what an experiment's fingerprint is taken of.
type canonExperiment struct {
	Name     string         `json:"name"`
	Seeds    SeedRange      `json:"seeds"`
	Detail   string         `json:"detail"`
	Variants []canonVariant `json:"variants"`
}

type canonVariant struct {
	Name   string          `json:"name"`
	Seats  []string        `json:"seats"`
	Rotate bool            `json:"rotate"`
	Params map[string]any  `json:"params"` // seat -> the overrides as written
	Rules  json.RawMessage `json:"rules"`  // in full
}

// parseSeatParams reads a variant's params as a --params file is read
// (agent.ParseSeatParamsNode), checks its seats against the variant's,
// and sets the seats' Params. It returns the overrides as written, by
// "all" and seat index, for the fingerprint and the summaries.
func parseSeatParams(file string, n *yaml.Node, path string, seats []Seat) (map[string]any, error) {
	sp, err := agent.ParseSeatParamsNode(file, n, path)
	if err != nil {
		return nil, err
	}
	if err := sp.Check(len(seats)); err != nil {
		return nil, err
	}
	for s := range seats {
		seats[s].Params = sp.ForSeat(s)
	}
	return sp.Written(), nil
}

// experimentRules are the rules an experiment's overrides go on top
// of: the defaults, with the round limit of experiments.
func experimentRules() (*monopoly.Rules, error) {
	r, err := monopoly.DefaultRules().WithOverrides("experiment defaults", fmt.Appendf(nil, "max_rounds: %d", DefaultExperimentRounds))
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return r, nil
}

// overlayRules applies a rules mapping found at path in file on top of
// base. The engine reads the mapping as a document of its own, so its
// errors are moved back to the spec: the line of the key at fault and
// the field's full path.
func overlayRules(file string, base *monopoly.Rules, n *yaml.Node, path string) (*monopoly.Rules, error) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return base, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, &strictyaml.Error{File: file, Line: n.Line, Field: path, Msg: "want a mapping of rules keys"}
	}
	if len(n.Content) == 0 {
		return base, nil
	}
	doc, err := yaml.Marshal(n)
	if err != nil {
		return nil, &strictyaml.Error{File: file, Line: n.Line, Field: path, Msg: err.Error()}
	}
	r, err := base.WithOverrides(file, doc)
	if err == nil {
		return r, nil
	}
	ce, ok := err.(*monopoly.ConfigError)
	if !ok || ce.File != file {
		// A problem in what the defaults hold, brought out by an override.
		return nil, &strictyaml.Error{File: file, Line: n.Line, Field: path, Msg: err.Error()}
	}
	field := path
	if ce.Field != "" {
		field += "." + ce.Field
	}
	return nil, &strictyaml.Error{File: file, Line: nodeLine(n, ce.Field), Field: field, Msg: ce.Msg}
}

// nodeLine returns the line of the key path field ("decks[0].cards[1].do")
// below n, or of the deepest part of it that n holds.
func nodeLine(n *yaml.Node, field string) int {
	line := n.Line
	for field != "" {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		var seg string
		if field[0] == '[' {
			end := strings.IndexByte(field, ']')
			if end < 0 {
				return line
			}
			i, err := strconv.Atoi(field[1:end])
			if err != nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
				return line
			}
			n, field = n.Content[i], field[end+1:]
			line = n.Line
			field = strings.TrimPrefix(field, ".")
			continue
		}
		end := strings.IndexAny(field, ".[")
		if end < 0 {
			seg, field = field, ""
		} else {
			seg, field = field[:end], strings.TrimPrefix(field[end:], ".")
		}
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}
