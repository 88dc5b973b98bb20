package arena

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
)

// Tune is a parsed tuning spec: knobs of one bot (agent.Params) searched
// by CMA-ES for the values that win it the largest share of games
// against a field of opponents. Each generation's candidates play one
// experiment on the same seeds (common random numbers), the tuned bot in
// seat 0 of a rotating table so that it plays every position equally
// often; a validation experiment then plays the starting knobs and the
// best found on seeds no generation used.
type Tune struct {
	Name        string
	Description string
	Bot         string     // the bot tuned
	Field       []string   // the other seats' bots
	Knobs       []TuneKnob // the dimensions of the search, in the spec's order
	// Games is how many games each candidate plays: a multiple of the
	// seats.
	Games       int
	Generations int
	// Population is how many candidates a generation has (CMA-ES's
	// lambda): the spec's, or CMA-ES's default for the number of knobs.
	Population int
	// Step is CMA-ES's initial step size, as a share of each knob's
	// bounds.
	Step float64
	Seed uint64
	// ValidationGames is how many games the starting knobs and the best
	// play in the validation; 0: none.
	ValidationGames int
	Rules           *monopoly.Rules
	// File and Source are the spec's file name and text, copied into
	// the output directory.
	File   string
	Source []byte

	rules       *yaml.Node // the rules overrides (a mapping), nil for none: every generation's spec holds them
	fingerprint string
}

// TuneKnob is one knob searched: its bounds (inside its range tag) and
// the value the search starts from.
type TuneKnob struct {
	Name   string
	Lo, Hi float64
	Start  float64
	Int    bool // takes whole numbers
}

// Seats returns the bots of a table, the tuned one in seat 0.
func (t *Tune) Seats() []string { return append([]string{t.Bot}, t.Field...) }

// Fingerprint identifies what the tuning plays: two specs with the same
// fingerprint search the same way (comments, layout and the description
// do not count; the rules count in full).
func (t *Tune) Fingerprint() string { return t.fingerprint }

// tuneFile is the spec as written.
type tuneFile struct {
	Name            string    `yaml:"name"`
	Description     string    `yaml:"description"`
	Bot             string    `yaml:"bot"`
	Field           []string  `yaml:"field"`
	Knobs           yaml.Node `yaml:"knobs"`
	Start           yaml.Node `yaml:"start"`
	Games           *int      `yaml:"games"`
	Generations     *int      `yaml:"generations"`
	Population      *int      `yaml:"population"`
	Step            *float64  `yaml:"step"`
	Seed            uint64    `yaml:"seed"`
	ValidationGames *int      `yaml:"validation_games"`
	Rules           yaml.Node `yaml:"rules"`
	MaxRounds       *int      `yaml:"max_rounds"`
}

// defaultTuneStep is CMA-ES's initial step unless the spec says: a
// third of the bounds reaches most of them in the first generations.
const defaultTuneStep = 0.3

// LoadTune reads and parses a tuning spec file.
func LoadTune(path string) (*Tune, error) {
	data, err := readSpec(path)
	if err != nil {
		return nil, err
	}
	return ParseTune(path, data)
}

// ParseTune parses a tuning spec (YAML); file names it in errors, which
// are *strictyaml.Error with the line and field at fault, and locates a
// rules file named in it (relative to the spec's directory).
//
//	name: baseline-reserve
//	bot: baseline                        # the bot tuned, in seat 0
//	field: [planning, baseline, baseline] # the other seats
//	knobs:                               # searched, within bounds
//	  cash_reserve: [0, 2000]
//	  valuation_bias:                    # empty: the knob's whole range
//	start: {cash_reserve: 2000}          # default: the bot's defaults
//	games: 48                            # per candidate, a multiple of the seats
//	generations: 10
//	population: 8                        # default: CMA-ES's for the knobs
//	step: 0.3                            # initial step, share of the bounds
//	seed: 1
//	validation_games: 400                # default: games
//	rules: rules.yaml                    # a rules file, or a mapping of overrides
//	max_rounds: 200                      # default 500
func ParseTune(file string, data []byte) (*Tune, error) {
	var f tuneFile
	doc, err := decodeSpec(file, data, &f)
	if err != nil {
		return nil, err
	}
	errAt, pos := doc.errAt, doc.pos
	t := &Tune{Name: f.Name, Description: f.Description, Bot: f.Bot, Field: f.Field, File: file, Source: data, Seed: f.Seed}
	if err := doc.checkName(f.Name); err != nil {
		return nil, err
	}
	if f.Bot == "" {
		return nil, errAt("bot", "is required: the bot whose knobs are tuned")
	}
	bot, err := agent.Lookup(f.Bot)
	switch {
	case err != nil:
		return nil, errAt("bot", "unknown bot %q (known: %s)", f.Bot, strings.Join(agent.Names(), ", "))
	case bot.Outside:
		return nil, errAt("bot", "%q plays from outside gopoly: its knobs are its own", f.Bot)
	}
	if n := len(f.Field) + 1; len(f.Field) == 0 || n > monopoly.MaxPlayers {
		return nil, errAt("field", "needs 1 to %d bots (the other seats), got %d", monopoly.MaxPlayers-1, len(f.Field))
	}
	for i, b := range f.Field {
		if !agent.Known(b) {
			return nil, errAt(fmt.Sprintf("field[%d]", i), "unknown bot %q (known: %s)", b, strings.Join(agent.Names(), ", "))
		}
	}
	seats := len(f.Field) + 1
	if t.Knobs, err = parseTuneKnobs(file, &f.Knobs, bot, pos); err != nil {
		return nil, err
	}
	if err := parseTuneStart(file, &f.Start, t.Knobs, bot); err != nil {
		return nil, err
	}
	games := func(field string, n *int, required bool) (int, error) {
		switch {
		case n == nil && required:
			return 0, errAt(field, "is required: how many games each candidate plays, a multiple of the %d seats", seats)
		case n == nil:
			return 0, nil
		case *n <= 0 && required:
			return 0, errAt(field, "must be at least %d, got %d", seats, *n)
		case *n < 0:
			return 0, errAt(field, "must be 0 (none) or a multiple of the %d seats, got %d", seats, *n)
		case *n%seats != 0:
			return 0, errAt(field, "%d is not a multiple of the %d seats: the tuned bot must sit in each as often", *n, seats)
		}
		return *n, nil
	}
	if t.Games, err = games("games", f.Games, true); err != nil {
		return nil, err
	}
	t.ValidationGames = t.Games
	if f.ValidationGames != nil {
		if t.ValidationGames, err = games("validation_games", f.ValidationGames, false); err != nil {
			return nil, err
		}
	}
	switch {
	case f.Generations == nil:
		return nil, errAt("generations", "is required: how many generations CMA-ES plays")
	case *f.Generations < 1:
		return nil, errAt("generations", "must be at least 1, got %d", *f.Generations)
	}
	t.Generations = *f.Generations
	t.Population = defaultPopulation(len(t.Knobs))
	if f.Population != nil {
		if *f.Population < 2 {
			return nil, errAt("population", "must be at least 2 (CMA-ES learns from the better half), got %d", *f.Population)
		}
		t.Population = *f.Population
	}
	if t.Games > maxGames/t.Population/t.Generations || t.ValidationGames > maxGames/2 {
		return nil, errAt("games", "%d generations of %d candidates playing %d games each: more than %d games", t.Generations, t.Population, t.Games, maxGames)
	}
	t.Step = defaultTuneStep
	if f.Step != nil {
		if !(*f.Step > 0 && *f.Step <= 1) {
			return nil, errAt("step", "%s: want a share of the bounds above 0, at most 1", strconv.FormatFloat(*f.Step, 'g', -1, 64))
		}
		t.Step = *f.Step
	}
	if t.rules, err = tuneRules(file, &f.Rules, f.MaxRounds, pos); err != nil {
		return nil, err
	}
	base, err := experimentRules()
	if err != nil {
		return nil, err
	}
	if t.Rules = base; t.rules != nil {
		if t.Rules, err = overlayRules(file, base, t.rules, "rules"); err != nil {
			return nil, err
		}
	}
	if t.fingerprint, err = t.canon(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseTuneKnobs reads the knobs mapping: knob name to [lo, hi], or to
// nothing for the knob's whole range.
func parseTuneKnobs(file string, n *yaml.Node, bot agent.Bot, pos strictyaml.Positions) ([]TuneKnob, error) {
	fail := func(n *yaml.Node, field, format string, args ...any) error {
		return &strictyaml.Error{File: file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == 0 || n.Tag == "!!null" || n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		return nil, pos.Errorf(file, "knobs", "is required: the knobs to search, each with its bounds ([lo, hi]) or none for its whole range")
	}
	if n.Kind != yaml.MappingNode {
		return nil, fail(n, "knobs", "want a mapping of knob names to bounds [lo, hi]")
	}
	var knobs []TuneKnob
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := "knobs." + k.Value
		lo, hi, isInt, ok := agent.ParamRange(k.Value)
		switch {
		case !ok:
			return nil, fail(k, field, "unknown knob (known: %s)", strings.Join(agent.ParamNames(), ", "))
		case slices.ContainsFunc(knobs, func(kn TuneKnob) bool { return kn.Name == k.Value }):
			return nil, fail(k, field, "given twice")
		case bot.Reads != nil && !slices.Contains(bot.Reads, k.Value):
			return nil, fail(k, field, "%s does not read it (it reads %s)", bot.Name, strings.Join(bot.Reads, ", "))
		}
		kn := TuneKnob{Name: k.Value, Lo: lo, Hi: hi, Int: isInt}
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if v.Tag != "!!null" {
			var b []float64
			if err := strictyaml.DecodeNode(file, v, &b, field, nil); err != nil {
				return nil, err
			}
			if len(b) != 2 {
				return nil, fail(v, field, "want bounds [lo, hi], got %d numbers", len(b))
			}
			for j, x := range b {
				switch {
				case !(x >= lo && x <= hi):
					return nil, fail(v, field, "%s is outside %s's range, from %s to %s", formatKnob(x), k.Value, formatKnob(lo), formatKnob(hi))
				case isInt && x != math.Trunc(x):
					return nil, fail(v, field, "%s takes whole numbers, got %s", k.Value, formatKnob(x))
				}
				b[j] = x
			}
			kn.Lo, kn.Hi = b[0], b[1]
		}
		if !(kn.Lo < kn.Hi) {
			return nil, fail(v, field, "[%s, %s]: want lo < hi, or there is nothing to search", formatKnob(kn.Lo), formatKnob(kn.Hi))
		}
		knobs = append(knobs, kn)
	}
	return knobs, nil
}

// parseTuneStart sets the knobs' starting values: those the start
// mapping gives, the bot's defaults for the others.
func parseTuneStart(file string, n *yaml.Node, knobs []TuneKnob, bot agent.Bot) error {
	defaults, err := knobValues(bot.Defaults)
	if err != nil {
		return err
	}
	given := map[string]bool{}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != 0 && n.Tag != "!!null" {
		if n.Kind != yaml.MappingNode {
			return &strictyaml.Error{File: file, Line: n.Line, Field: "start", Msg: "want a mapping of knob names to values"}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			field := "start." + k.Value
			fail := func(format string, args ...any) error {
				return &strictyaml.Error{File: file, Line: k.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
			}
			j := slices.IndexFunc(knobs, func(kn TuneKnob) bool { return kn.Name == k.Value })
			switch {
			case j < 0:
				return fail("not among the knobs searched")
			case given[k.Value]:
				return fail("given twice")
			}
			given[k.Value] = true
			var x float64
			if err := strictyaml.DecodeNode(file, v, &x, field, nil); err != nil {
				return err
			}
			kn := &knobs[j]
			switch {
			case !(x >= kn.Lo && x <= kn.Hi):
				return fail("%s is outside the bounds [%s, %s]", formatKnob(x), formatKnob(kn.Lo), formatKnob(kn.Hi))
			case kn.Int && x != math.Trunc(x):
				return fail("%s takes whole numbers, got %s", kn.Name, formatKnob(x))
			}
			kn.Start = x
		}
	}
	for j := range knobs {
		kn := &knobs[j]
		if given[kn.Name] {
			continue
		}
		kn.Start = defaults[kn.Name]
		if !(kn.Start >= kn.Lo && kn.Start <= kn.Hi) {
			return &strictyaml.Error{File: file, Line: n.Line, Field: "start." + kn.Name,
				Msg: fmt.Sprintf("%s's default, %s, is outside the bounds [%s, %s]: give a start inside them", bot.Name, formatKnob(kn.Start), formatKnob(kn.Lo), formatKnob(kn.Hi))}
		}
	}
	return nil
}

// knobValues returns every knob of p by YAML name (which its JSON names
// are too).
func knobValues(p agent.Params) (map[string]float64, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	var m map[string]float64
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return m, nil
}

// tuneRules returns the rules overrides of a tuning spec as one mapping:
// rules, a rules file (named relative to the spec) or a mapping, with
// max_rounds on top. A rules file's own errors name it and its line.
func tuneRules(file string, n *yaml.Node, maxRounds *int, pos strictyaml.Positions) (*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	var m *yaml.Node
	switch {
	case n.Kind == 0 || n.Tag == "!!null":
	case n.Kind == yaml.MappingNode:
		m = n
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		path := n.Value
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(file), path)
		}
		data, err := strictyaml.ReadFile(path)
		if err != nil {
			var se *strictyaml.Error
			if errors.As(err, &se) {
				return nil, err
			}
			return nil, &strictyaml.Error{File: file, Line: n.Line, Field: "rules", Msg: err.Error()}
		}
		base, err := experimentRules()
		if err != nil {
			return nil, err
		}
		if _, err := base.WithOverrides(path, data); err != nil {
			return nil, err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, &strictyaml.Error{File: path, Msg: err.Error()}
		}
		if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
			m = doc.Content[0]
		}
	default:
		return nil, &strictyaml.Error{File: file, Line: n.Line, Field: "rules", Msg: "want a rules file's name or a mapping of rules keys"}
	}
	if maxRounds == nil {
		return m, nil
	}
	if *maxRounds < 0 {
		return nil, pos.Errorf(file, "max_rounds", "%d: want 0 (no limit) or more rounds", *maxRounds)
	}
	// A copy, max_rounds replaced: the spec's own nodes stay as written.
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: pos.Of("max_rounds", strictyaml.Pos{}).Line}
	if m != nil {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value != "max_rounds" {
				out.Content = append(out.Content, m.Content[i], m.Content[i+1])
			}
		}
	}
	out.Content = append(out.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "max_rounds", Line: out.Line},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(*maxRounds), Line: out.Line})
	return out, nil
}

// canonTune is what a tuning run's fingerprint is taken of.
type canonTune struct {
	Name            string          `json:"name"`
	Bot             string          `json:"bot"`
	Field           []string        `json:"field"`
	Knobs           []TuneKnob      `json:"knobs"`
	Games           int             `json:"games"`
	Generations     int             `json:"generations"`
	Population      int             `json:"population"`
	Step            float64         `json:"step"`
	Seed            uint64          `json:"seed"`
	ValidationGames int             `json:"validation_games"`
	Rules           json.RawMessage `json:"rules"` // in full
}

func (t *Tune) canon() (string, error) {
	rules, err := json.Marshal(t.Rules)
	if err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	c, err := json.Marshal(canonTune{Name: t.Name, Bot: t.Bot, Field: t.Field, Knobs: t.Knobs, Games: t.Games, Generations: t.Generations,
		Population: t.Population, Step: t.Step, Seed: t.Seed, ValidationGames: t.ValidationGames, Rules: rules})
	if err != nil {
		return "", fmt.Errorf("arena: %w", err)
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

// formatKnob writes a knob's value as the params files take it: in full,
// without an exponent.
func formatKnob(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// knobSet is one candidate's knobs, in the order of Tune.Knobs.
type knobSet []float64

// values returns the knobs by name.
func (t *Tune) values(ks knobSet) map[string]float64 {
	m := make(map[string]float64, len(ks))
	for i, x := range ks {
		m[t.Knobs[i].Name] = x
	}
	return m
}

// startKnobs returns the starting values.
func (t *Tune) startKnobs() knobSet {
	ks := make(knobSet, len(t.Knobs))
	for i, k := range t.Knobs {
		ks[i] = k.Start
	}
	return ks
}

// The search runs in the unit cube: coordinate i at 0 is knob i's lower
// bound, at 1 its upper one, so that one step size suits knobs of any
// scale.

// toUnit returns ks in the unit cube.
func (t *Tune) toUnit(ks knobSet) []float64 {
	u := make([]float64, len(ks))
	for i, k := range t.Knobs {
		u[i] = (ks[i] - k.Lo) / (k.Hi - k.Lo)
	}
	return u
}

// fromUnit returns the knobs a point of the search plays with: each
// coordinate clamped into the cube, and the knob rounded to a whole
// number, or to six significant digits so that files stay readable.
func (t *Tune) fromUnit(u []float64) knobSet {
	ks := make(knobSet, len(u))
	for i, k := range t.Knobs {
		x := k.Lo + min(1, max(0, u[i]))*(k.Hi-k.Lo)
		if k.Int {
			x = math.Round(x)
		} else {
			x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
		}
		ks[i] = min(k.Hi, max(k.Lo, x))
	}
	return ks
}

// outside is how far u lies outside the unit cube, squared: CMA-ES knows
// no bounds, so a point outside plays as the nearest point inside and
// pays this much on top, which keeps the search from drifting out.
func outside(u []float64) float64 {
	d := 0.0
	for _, x := range u {
		e := x - min(1, max(0, x))
		d += e * e
	}
	return d
}

// tuneVariant is one arm of a tuning experiment: a name and the tuned
// bot's knobs.
type tuneVariant struct {
	name  string
	knobs knobSet
}

// experimentSpec is an experiment spec as written, for the experiments a
// tuning run plays.
type experimentSpec struct {
	Name        string           `yaml:"name"`
	Description string           `yaml:"description"`
	Seeds       seedsSpec        `yaml:"seeds,flow"`
	Detail      string           `yaml:"detail"`
	Rules       *yaml.Node       `yaml:"rules,omitempty"`
	Variants    []experimentSeat `yaml:"variants"`
}

type seedsSpec struct {
	Start uint64 `yaml:"start"`
	Count int    `yaml:"count"`
	Step  uint64 `yaml:"step"`
}

type experimentSeat struct {
	Name   string     `yaml:"name"`
	Seats  []string   `yaml:"seats,flow"`
	Rotate bool       `yaml:"rotate"`
	Params *yaml.Node `yaml:"params"`
}

// experiment returns the experiment that plays variants on count seeds
// from start: each variant the tuned bot, with its knobs, in seat 0 of
// the table rotating. Its spec is an experiment spec like any other, so
// that the directory it is played into is an experiment's (gopoly
// experiment show reads it).
func (t *Tune) experiment(name, desc string, start uint64, count int, variants []tuneVariant) (*Experiment, error) {
	spec := experimentSpec{Name: name, Description: desc, Seeds: seedsSpec{Start: start, Count: count, Step: 1}, Detail: DetailSummary.String(), Rules: t.rules}
	for _, v := range variants {
		knobs := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for i, k := range t.Knobs {
			knobs.Content = append(knobs.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Value: k.Name},
				&yaml.Node{Kind: yaml.ScalarNode, Value: formatKnob(v.knobs[i])})
		}
		params := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "0"}, knobs}}
		spec.Variants = append(spec.Variants, experimentSeat{Name: v.name, Seats: t.Seats(), Rotate: true, Params: params})
	}
	data, err := yaml.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	data = append([]byte("# Written by gopoly tune: "+t.Name+"'s "+desc+".\n"), data...)
	e, err := ParseExperiment(name, data)
	if err != nil {
		// The spec was checked: a failure here is gopoly's own.
		return nil, fmt.Errorf("arena: tuning %s: %w", t.Name, err)
	}
	return e, nil
}

// generationSeeds returns the first seed of generation g's games: a
// stream of its own for every generation, below 2^63 so that no range
// of games wraps around.
func (t *Tune) generationSeeds(g int) uint64 { return monopoly.DeriveSeed(t.Seed, g) >> 1 }

// validationSeeds returns the first seed of the validation's games, from
// a stream no generation draws from.
func (t *Tune) validationSeeds() uint64 {
	return monopoly.DeriveSeed(t.Seed^0x5eed_7a11_da7a_0001, 0) >> 1
}

// generation returns the experiment of generation g, whose candidates
// play with knobs.
func (t *Tune) generation(g int, knobs []knobSet) (*Experiment, error) {
	w := len(strconv.Itoa(len(knobs) - 1))
	vs := make([]tuneVariant, len(knobs))
	for i, ks := range knobs {
		vs[i] = tuneVariant{name: fmt.Sprintf("c%0*d", w, i), knobs: ks}
	}
	return t.experiment(fmt.Sprintf("%s-g%d", t.Name, g), fmt.Sprintf("generation %d", g), t.generationSeeds(g), t.Games, vs)
}

// validation returns the experiment that plays the starting knobs
// against the best found, on fresh seeds.
func (t *Tune) validation(best knobSet) (*Experiment, error) {
	return t.experiment(t.Name+"-validation", "validation of the best knobs against the start", t.validationSeeds(), t.ValidationGames,
		[]tuneVariant{{name: "start", knobs: t.startKnobs()}, {name: "best", knobs: best}})
}
