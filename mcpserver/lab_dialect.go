package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// start_experiment also takes monopoly-mcp's arguments: a name, a
// config_id, a detail_level, a seed_range and variants that override
// players by token. They are translated here into gopoly's experiment
// spec (arena.ParseExperiment's YAML), which then runs like any other,
// so that the run's spec.yaml shows what was played. The players are
// monopoly-mcp's default table unless given: four AI players named after
// tokens, each its default strategy, adaptive.

type (
	// seedRange is monopoly-mcp's seed_range.
	seedRange struct {
		Start uint64 `json:"start"`
		Count int    `json:"count"`
		Step  uint64 `json:"step,omitempty"`
	}
	// mcpVariant is one of monopoly-mcp's variants.
	mcpVariant struct {
		Name            string       `json:"name"`
		PlayerOverrides []playerSpec `json:"player_overrides,omitempty"`
		Rules           any          `json:"rules,omitempty"`
	}
	// specFile is gopoly's experiment spec as the translation writes it.
	specFile struct {
		Name   string        `yaml:"name"`
		Seeds  seedRange     `yaml:"seeds"`
		Detail string        `yaml:"detail,omitempty"`
		Rules  any           `yaml:"rules,omitempty"`
		Vars   []specVariant `yaml:"variants"`
	}
	specVariant struct {
		Name   string                 `yaml:"name"`
		Seats  []string               `yaml:"seats"`
		Params map[int]map[string]any `yaml:"params,omitempty"`
		Rules  any                    `yaml:"rules,omitempty"`
	}
)

// defaultStrategy is the strategy of monopoly-mcp's AI players when none
// is given.
const defaultStrategy = "adaptive"

// mcpExperiment reads in's monopoly-mcp arguments as gopoly's spec, with
// notes on what was not used.
func (s *Server) mcpExperiment(ctx context.Context, in startExperimentIn) ([]byte, []string, error) {
	if in.SeedRange == nil {
		return nil, nil, errors.New("seed_range is required with variants: {start, count, step}")
	}
	if len(in.Variants) == 0 {
		return nil, nil, errors.New("variants: at least one, such as {\"name\": \"baseline\"}")
	}
	f := specFile{Name: in.Name, Seeds: *in.SeedRange, Detail: in.DetailLevel}
	if f.Seeds.Step == 0 {
		f.Seeds.Step = 1
	}
	var notes []string
	players := in.Players
	if len(players) == 0 {
		for _, tok := range classicTokens[:4] {
			players = append(players, playerSpec{Token: tok, AI: &aiSpec{Strategy: defaultStrategy}})
		}
	}
	base, params, err := experimentSeats(players, "players", &notes)
	if err != nil {
		return nil, nil, err
	}
	rules, err := s.experimentRules(ctx, in.ConfigID, in.Rules)
	if err != nil {
		return nil, nil, err
	}
	f.Rules = rules
	tokens := make([]string, len(players))
	for i, p := range players {
		tokens[i] = p.Token
	}
	for vi, v := range in.Variants {
		sv := specVariant{Name: v.Name, Seats: slices.Clone(base), Params: map[int]map[string]any{}, Rules: v.Rules}
		for seat, ps := range params {
			sv.Params[seat] = ps
		}
		for oi, o := range v.PlayerOverrides {
			where := fmt.Sprintf("variants[%d].player_overrides[%d]", vi, oi)
			seat := slices.IndexFunc(tokens, func(t string) bool { return strings.EqualFold(t, o.Token) })
			if seat < 0 {
				return nil, nil, fmt.Errorf("%s: token %q is not a player (players: %s)", where, o.Token, strings.Join(tokens, ", "))
			}
			if o.IsHuman || o.AI == nil {
				return nil, nil, fmt.Errorf("%s: give ai: {strategy, params}; an experiment has no human players", where)
			}
			over, ps, err := experimentSeats([]playerSpec{o}, where, &notes)
			if err != nil {
				return nil, nil, err
			}
			sv.Seats[seat] = over[0]
			if ps[0] != nil {
				sv.Params[seat] = ps[0]
			} else {
				delete(sv.Params, seat)
			}
		}
		if len(sv.Params) == 0 {
			sv.Params = nil
		}
		f.Vars = append(f.Vars, sv)
	}
	data, err := yaml.Marshal(f)
	return data, notes, err
}

// experimentSeats are the bots of players, and the knobs of each seat
// that sets some (by seat).
func experimentSeats(players []playerSpec, where string, notes *[]string) ([]string, map[int]map[string]any, error) {
	seats := make([]string, len(players))
	params := map[int]map[string]any{}
	for i, p := range players {
		if p.IsHuman || p.AI == nil {
			return nil, nil, fmt.Errorf("%s[%d]: an experiment's players are ai players: {token, ai: {strategy, params}}", where, i)
		}
		seats[i] = p.AI.Strategy
		if seats[i] == "" {
			seats[i] = defaultStrategy
		}
		if len(p.AI.Params) > 0 && string(p.AI.Params) != "null" {
			var ps map[string]any
			if err := json.Unmarshal(p.AI.Params, &ps); err != nil {
				return nil, nil, fmt.Errorf("%s[%d].ai.params: %v", where, i, err)
			}
			params[i] = ps
		}
		if p.AI.Seed != nil {
			*notes = append(*notes, fmt.Sprintf("%s[%d].ai.seed is not used: a bot draws from the game's seed and its seat", where, i))
		}
	}
	if len(params) == 0 {
		params = nil
	}
	return seats, params, nil
}

// experimentRules are the rules a config_id or rules overrides give, as
// a YAML value for the spec (nil: the standard rules).
func (s *Server) experimentRules(ctx context.Context, configID string, rules json.RawMessage) (any, error) {
	r, err := s.rulesOf(ctx, configID, rules, nil)
	if err != nil || r.Text == "" {
		return nil, err
	}
	var v any
	if err := yaml.Unmarshal([]byte(r.Text), &v); err != nil {
		return nil, err
	}
	return v, nil
}
