package deal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gopoly/gopoly/internal/atomicfile"
	"github.com/gopoly/gopoly/internal/jsonerr"
)

// CheckpointFormat identifies the checkpoint layout.
const CheckpointFormat = "gopoly-deal-checkpoint/1"

// checkpointJSON is the human-readable learner state. Keys are
// "player@IntentStateAbstraction@streak:Action,Action,..." (with
// "@fact=bucket,..." after them under the Situation abstraction); every
// vector has one entry per abstract action, in index order.
type checkpointJSON struct {
	Format        string                           `json:"format"`
	GameConfig    Config                           `json:"game_config"`
	Abstraction   string                           `json:"abstraction_cls"`
	Resolver      string                           `json:"resolver_cls"`
	Actions       []string                         `json:"abstract_actions"`
	Training      trainingJSON                     `json:"training"`
	PolicyManager policyManagerJSON                `json:"policy_manager"`
	RegretManager map[string]map[string]regretJSON `json:"regret_manager"`
	Reach         map[string]float64               `json:"cf_reach_prob_counter"`
}

type trainingJSON struct {
	SimsPerAction    int     `json:"sims_per_action"`
	Epsilon          float64 `json:"epsilon"`
	BufferSize       int     `json:"buffer_size"`
	MaxTurns         int     `json:"max_turns"`
	Seed             uint64  `json:"seed"`
	GamesDone        int     `json:"games_done"`
	Batch            int     `json:"batch"`
	Discount         float64 `json:"discount"`
	RealHandRollouts bool    `json:"rollouts_see_real_hand"`
}

type policyManagerJSON struct {
	BufferSize    int                  `json:"buffer_size"`
	UpdateCount   map[string]int64     `json:"update_count"`
	PlayerBuffers [2]playerBuffersJSON `json:"player_buffers"`
}

type playerBuffersJSON struct {
	Buffer map[string][][]float64 `json:"buffer"`
}

type regretJSON struct {
	Sum float64 `json:"sum"`
	N   int64   `json:"n"`
}

// MarshalCheckpoint writes the trainer's complete state as indented JSON.
// Equal states give identical bytes (maps are written in key order).
func (t *Trainer) MarshalCheckpoint() ([]byte, error) {
	tab := t.tab
	ck := checkpointJSON{
		Format:      CheckpointFormat,
		GameConfig:  t.rules.Config(),
		Abstraction: t.params.Abstraction.String(),
		Resolver:    t.params.Resolver.String(),
		Actions:     abstractNames[:],
		Training: trainingJSON{
			SimsPerAction:    t.params.Sims,
			Epsilon:          t.params.Epsilon,
			BufferSize:       t.params.Buffer,
			MaxTurns:         t.rules.MaxTurns(),
			Seed:             t.params.Seed,
			GamesDone:        t.done,
			Batch:            t.params.Batch,
			Discount:         Discount,
			RealHandRollouts: t.params.RealHand,
		},
		PolicyManager: policyManagerJSON{
			BufferSize:  t.params.Buffer,
			UpdateCount: map[string]int64{},
		},
		RegretManager: map[string]map[string]regretJSON{},
		Reach:         map[string]float64{},
	}
	for p := range ck.PolicyManager.PlayerBuffers {
		ck.PolicyManager.PlayerBuffers[p].Buffer = map[string][][]float64{}
	}
	for s := 0; s < tab.Slots(); s++ {
		if tab.visits[s] == 0 && tab.bufLen[s] == 0 && tab.updates[s] == 0 {
			continue
		}
		is := tab.Key(s)
		key := is.String()
		if tab.updates[s] > 0 {
			ck.PolicyManager.UpdateCount[key] = tab.updates[s]
		}
		if tab.bufLen[s] > 0 {
			var rows [][]float64
			for _, v := range tab.Buffer(s) {
				rows = append(rows, append([]float64(nil), v[:]...))
			}
			ck.PolicyManager.PlayerBuffers[is.Player].Buffer[key] = rows
		}
		if tab.visits[s] > 0 {
			rm := map[string]regretJSON{}
			for _, a := range is.Mask.Actions() {
				sum, n := tab.Regret(s, a)
				rm[a.String()] = regretJSON{Sum: sum, N: n}
			}
			ck.RegretManager[key] = rm
			ck.Reach[key] = tab.reach[s]
		}
	}
	data, err := json.MarshalIndent(ck, "", "  ")
	if err != nil {
		return nil, err
	}
	return numberLists.ReplaceAllFunc(data, func(m []byte) []byte {
		return spaces.ReplaceAll(m, nil)
	}), nil
}

// numberLists matches an indented JSON array of numbers; checkpoints keep
// each such array (a policy vector, a rent table) on one line.
var (
	numberLists = regexp.MustCompile(`\[[-+0-9.eE,\s]*\]`)
	spaces      = regexp.MustCompile(`\s+`)
)

// Checkpoint is a decoded checkpoint: enough to resume training or to
// play the trained policy.
type Checkpoint struct {
	Config    Config
	Params    Params
	GamesDone int
	Tables    *Tables
}

// ParseCheckpoint decodes and validates a checkpoint; errors name the
// field at fault.
func ParseCheckpoint(data []byte) (*Checkpoint, error) {
	var ck checkpointJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ck); err != nil {
		return nil, jsonError(data, err)
	}
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("deal: checkpoint field %s: %s", field, fmt.Sprintf(format, args...))
	}
	if ck.Format != CheckpointFormat {
		return nil, bad("format", "want %q, got %q", CheckpointFormat, ck.Format)
	}
	abs, err := ParseAbstraction(ck.Abstraction)
	if err != nil || ck.Abstraction != abs.String() {
		return nil, bad("abstraction_cls", "want %q or %q, got %q", AbstractionName, SituationAbstractionName, ck.Abstraction)
	}
	res, err := ParseResolver(ck.Resolver)
	if err != nil {
		return nil, bad("resolver_cls", "%v", err)
	}
	for i, name := range abstractNames {
		if i >= len(ck.Actions) || ck.Actions[i] != name {
			return nil, bad("abstract_actions", "want %v", abstractNames)
		}
	}
	if len(ck.Actions) != NumAbstract {
		return nil, bad("abstract_actions", "want %d actions, got %d", NumAbstract, len(ck.Actions))
	}
	cfg := ck.GameConfig
	if ck.Training.MaxTurns != cfg.MaxTurns {
		return nil, bad("training.max_turns", "%d differs from game_config.max_turns %d", ck.Training.MaxTurns, cfg.MaxTurns)
	}
	rules, err := NewRules(cfg)
	if err != nil {
		return nil, bad("game_config", "%v", err)
	}
	tr := ck.Training
	p := Params{Sims: tr.SimsPerAction, Epsilon: tr.Epsilon, Buffer: tr.BufferSize, Seed: tr.Seed, RealHand: tr.RealHandRollouts, Resolver: res, Batch: tr.Batch, Abstraction: abs}
	if err := p.validate(); err != nil {
		return nil, bad("training", "%v", err)
	}
	if tr.GamesDone < 0 {
		return nil, bad("training.games_done", "negative")
	}
	if tr.Discount != Discount {
		return nil, bad("training.discount", "want %v, got %v", Discount, tr.Discount)
	}
	if ck.PolicyManager.BufferSize != tr.BufferSize {
		return nil, bad("policy_manager.buffer_size", "%d differs from training.buffer_size %d", ck.PolicyManager.BufferSize, tr.BufferSize)
	}
	tab := NewTablesOf(abs, rules.PlaysPerStreak(), tr.BufferSize)
	slotOf := func(field, key string) (int, InfoSet, error) {
		is, err := ParseInfoSet(key)
		if err != nil {
			return 0, is, bad(field, "%v", err)
		}
		if is.Abs != abs {
			return 0, is, bad(field, "a key of %s in a checkpoint of %s", is.Abs, abs)
		}
		if int(is.Streak) >= rules.PlaysPerStreak() {
			return 0, is, bad(field, "streak index %d with %d plays per streak", is.Streak, rules.PlaysPerStreak())
		}
		return tab.Slot(is), is, nil
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	err = eachKey(ck.PolicyManager.UpdateCount, "policy_manager.update_count", slotOf, func(field string, s int, _ InfoSet, n int64) error {
		if n < 0 {
			return bad(field, "negative count %d", n)
		}
		tab.updates[s] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	for player, pb := range ck.PolicyManager.PlayerBuffers {
		err := eachKey(pb.Buffer, fmt.Sprintf("policy_manager.player_buffers[%d].buffer", player), slotOf, func(field string, s int, is InfoSet, rows [][]float64) error {
			if int(is.Player) != player {
				return bad(field, "key of player %d in player %d's buffer", is.Player, player)
			}
			if len(rows) == 0 || len(rows) > tr.BufferSize {
				return bad(field, "need 1..%d policies, got %d", tr.BufferSize, len(rows))
			}
			for i, row := range rows {
				// Without fmt: a Situation checkpoint has tens of
				// thousands of rows.
				f := field + "[" + strconv.Itoa(i) + "]"
				if len(row) != NumAbstract {
					return bad(f, "need %d probabilities, got %d", NumAbstract, len(row))
				}
				var v [NumAbstract]float64
				total := 0.0
				for a, x := range row {
					if !finite(x) || x < 0 || x > 1 {
						return bad(f, "probability %v out of range", x)
					}
					if x > 0 && !is.Mask.Has(Abstract(a)) {
						return bad(f, "probability for %s, not available at this key", Abstract(a))
					}
					v[a] = x
					total += x
				}
				if math.Abs(total-1) > 1e-6 {
					return bad(f, "probabilities sum to %v", total)
				}
				tab.pushRaw(s, &v)
			}
			tab.refreshAverage(s)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	err = eachKey(ck.RegretManager, "regret_manager", slotOf, func(field string, s int, is InfoSet, acts map[string]regretJSON) error {
		var visits int64 = -1
		for _, a := range is.Mask.Actions() {
			rj, ok := acts[a.String()]
			if !ok {
				return bad(field, "missing action %s", a)
			}
			if !finite(rj.Sum) || rj.N < 0 {
				return bad(field+"."+a.String(), "bad sum %v or count %d", rj.Sum, rj.N)
			}
			if visits >= 0 && rj.N != visits {
				return bad(field+"."+a.String(), "count %d differs from the key's other actions (%d)", rj.N, visits)
			}
			visits = rj.N
			tab.regretSum[s*NumAbstract+int(a)] = rj.Sum
			tab.regretN[s*NumAbstract+int(a)] = rj.N
		}
		if len(acts) != is.Mask.Count() {
			return bad(field, "actions %v, want exactly %s", keysOf(acts), is.Mask)
		}
		tab.visits[s] = visits
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachKey(ck.Reach, "cf_reach_prob_counter", slotOf, func(field string, s int, _ InfoSet, x float64) error {
		if !finite(x) || x < 0 {
			return bad(field, "bad value %v", x)
		}
		tab.reach[s] = x
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Checkpoint{Config: cfg, Params: p, GamesDone: tr.GamesDone, Tables: tab}, nil
}

// jsonError places an error decoding the checkpoint data: a syntax
// error, or the text ending early, at its line and column; a value of
// the wrong type at its line and field.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := jsonerr.Pos(data, se.Offset)
		return fmt.Errorf("deal: checkpoint: line %d, column %d: %v", line, col, se)
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A json.Decoder reports the end of its input without an offset.
		line, col := jsonerr.Pos(data, int64(len(data)))
		return fmt.Errorf("deal: checkpoint: line %d, column %d: unexpected end of JSON input", line, col)
	case errors.As(err, &te) && te.Field != "":
		line, _ := jsonerr.Pos(data, te.Offset)
		return fmt.Errorf("deal: checkpoint field %s: want %s, got %s (line %d)", te.Field, jsonerr.Want(te.Type), te.Value, line)
	}
	return fmt.Errorf("deal: checkpoint: %w", err)
}

// pushRaw appends to a slot's ring without counting an update or
// refreshing the average (loading restores those separately).
func (t *Tables) pushRaw(slot int, p *[NumAbstract]float64) {
	head := int(t.bufHead[slot])
	*vec(t.buf, slot*t.buffer+head) = *p
	t.bufHead[slot] = int32((head + 1) % t.buffer)
	t.bufLen[slot]++
}

// eachKey calls f with each key of m, a table of the checkpoint named
// name, in order: its field (name["key"]), the slot slotOf finds for it,
// its information set and its value. It stops at the first error.
func eachKey[V any](m map[string]V, name string, slotOf func(field, key string) (int, InfoSet, error), f func(field string, s int, is InfoSet, v V) error) error {
	for _, key := range sortedKeys(m) {
		field := fmt.Sprintf("%s[%q]", name, key)
		s, is, err := slotOf(field, key)
		if err != nil {
			return err
		}
		if err := f(field, s, is, m[key]); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func keysOf[V any](m map[string]V) []string { return sortedKeys(m) }

// LoadCheckpoint reads a checkpoint file; errors name the file and field.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("deal: %w", err)
	}
	ck, err := ParseCheckpoint(data)
	if err != nil {
		return nil, fmt.Errorf("%s (file %s)", err, path)
	}
	return ck, nil
}

// Resume rebuilds a trainer from a checkpoint; training on gives the same
// result as never having stopped (in batch-ordered mode).
func Resume(ck *Checkpoint) (*Trainer, error) {
	t, err := NewTrainer(ck.Config, ck.Params)
	if err != nil {
		return nil, err
	}
	t.tab = ck.Tables
	t.done = ck.GamesDone
	return t, nil
}

// Policy returns the checkpoint's trained agent.
func (ck *Checkpoint) Policy() *Policy { return NewPolicy(ck.Tables, ck.Params.Resolver) }

// Rules compiles the checkpoint's game configuration.
func (ck *Checkpoint) Rules() *Rules { return MustRules(ck.Config) }

// WriteFileAtomic writes data to path whole or not at all
// (atomicfile.Write), readable by all as os.WriteFile would leave it.
func WriteFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	return nil
}

// CheckpointName is the file name of the checkpoint after games games.
func CheckpointName(games int) string { return fmt.Sprintf("checkpoint-%07d.json", games) }

// LatestCheckpoint returns the checkpoint in dir with the most games done,
// or "" if there is none.
func LatestCheckpoint(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("deal: %w", err)
	}
	best, bestN := "", -1
	for _, e := range entries {
		name := e.Name()
		num, ok := strings.CutPrefix(name, "checkpoint-")
		if !ok {
			continue
		}
		num, ok = strings.CutSuffix(num, ".json")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		if n > bestN {
			best, bestN = filepath.Join(dir, name), n
		}
	}
	return best, nil
}
