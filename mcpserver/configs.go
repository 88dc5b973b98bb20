package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
)

func init() { features = append(features, (*Server).addConfigs) }

// defaultConfig is the id of the standard rules, always there.
const defaultConfig = "default"

type (
	validateIn struct {
		YAML string `json:"yaml"`
	}
	// configSummary is what a rules config makes of the game.
	configSummary struct {
		Squares      int      `json:"squares"`
		Streets      int      `json:"streets"`
		Railroads    int      `json:"railroads"`
		Utilities    int      `json:"utilities"`
		Groups       []string `json:"groups"`
		Decks        []string `json:"decks"`
		Cards        int      `json:"cards"`
		StartingCash int      `json:"starting_cash"`
		GoSalary     int      `json:"go_salary"`
		MaxRounds    int      `json:"max_rounds"`
		Auctions     bool     `json:"auctions"`
		DealProtocol string   `json:"deal_protocol"`
		Overrides    []string `json:"overrides" jsonschema:"the keys the config sets; the rest keep the standard rules"`
	}
	validateOut struct {
		Valid      bool           `json:"valid"`
		Error      string         `json:"error,omitempty" jsonschema:"what is wrong, with the line and the field"`
		Normalized string         `json:"normalized_yaml,omitempty" jsonschema:"the whole rules the config gives, as YAML"`
		Summary    *configSummary `json:"summary,omitempty"`
		Translated string         `json:"translated_yaml,omitempty" jsonschema:"a monopoly-mcp config: gopoly's rules keys it was read as (save_config saves these)"`
		Notes      []string       `json:"notes,omitempty" jsonschema:"what of a monopoly-mcp config gopoly's rules leave out"`
	}
	saveIn struct {
		ConfigID string `json:"config_id,omitempty"`
		Name     string `json:"name,omitempty"`
		YAML     string `json:"yaml"`
	}
	configOut struct {
		ConfigID string        `json:"config_id"`
		Name     string        `json:"name"`
		Created  time.Time     `json:"created"`
		YAML     string        `json:"yaml" jsonschema:"the config as saved: keys overlaid on the standard rules"`
		URI      string        `json:"uri"`
		Summary  configSummary `json:"summary"`
	}
	configIDIn struct {
		ConfigID string `json:"config_id"`
	}
	configDeletedOut struct {
		ConfigID string `json:"config_id"`
		Deleted  bool   `json:"deleted"`
	}
)

func (s *Server) addConfigs() {
	addTool(s, &mcp.Tool{Name: "validate_config", Title: "Validate a rules config",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Checks a rules config (YAML overlaid on the standard rules: game://config-docs, game://configs/default/annotated) " +
			"and returns whether it is valid, what is wrong (line and field), the whole rules it gives as YAML, and a summary."},
		nil, s.validateConfig)
	addTool(s, &mcp.Tool{Name: "save_config", Title: "Save a rules config",
		Description: "Validates and saves a rules config for create_game(config_id) to use, under config_id (default: made from name), " +
			"replacing a config of that id. A game keeps its own copy of its rules."}, nil, s.saveConfig)
	addTool(s, &mcp.Tool{Name: "delete_config", Title: "Delete a rules config",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: jsonschema.Ptr(true), IdempotentHint: true},
		Description: "Deletes a saved config; the games made from it keep their rules."}, nil, s.deleteConfig)

	s.resource("game://configs", "configs", mimeJSON, "the saved rules configs, and default", s.readConfigs)
	s.resource("game://configs/default/annotated", "default rules, annotated", mimeYAML, "the standard rules file with its comments: the place to start a config", s.readAnnotated)
	s.resource("game://configs/{id}", "config", mimeJSON, "one config: its YAML as saved and a summary", s.readConfig)
	s.resource("game://configs/{id}/yaml", "config YAML", mimeYAML, "the whole rules a config gives, as YAML", s.readConfigYAML)
	s.resource("game://config-schema", "config schema", mimeJSON, "the JSON Schema of a rules config", s.readConfigSchema)
	s.resource("game://config-docs", "config docs", mimeMarkdown, "how rules configs work, key by key", s.readConfigDocs)
}

// compileConfig checks a config's YAML as the store will.
func compileConfig(name, text string) (*monopoly.Rules, error) {
	return monopoly.DefaultRules().WithOverrides(name, []byte(text))
}

// configText is a config's YAML in gopoly's keys: as given, or
// translated from monopoly-mcp's (translated true), with its notes.
func configText(text string) (string, bool, []string, error) {
	if !isMCPConfig(text) {
		return text, false, nil, nil
	}
	out, notes, err := fromMCPConfig(text)
	if err != nil {
		return "", true, nil, fmt.Errorf("yaml (monopoly-mcp's config): %w", err)
	}
	return out, true, notes, nil
}

func (s *Server) validateConfig(_ context.Context, _ *mcp.CallToolRequest, in validateIn) (validateOut, error) {
	text, translated, notes, err := configText(in.YAML)
	if err != nil {
		return validateOut{Valid: false, Error: capEchoes(err.Error())}, nil
	}
	r, err := compileConfig("yaml", text)
	if err != nil {
		return validateOut{Valid: false, Error: capEchoes(err.Error()), Notes: notes}, nil
	}
	norm, err := normalized(r)
	if err != nil {
		return validateOut{}, err
	}
	sum := summarize(r, text)
	out := validateOut{Valid: true, Normalized: norm, Summary: &sum, Notes: notes}
	if translated {
		out.Translated = text
	}
	return out, nil
}

// idChars are what a config id made from a name keeps.
var idChars = regexp.MustCompile(`[^a-z0-9_-]+`)

func (s *Server) saveConfig(ctx context.Context, _ *mcp.CallToolRequest, in saveIn) (configOut, error) {
	id := in.ConfigID
	if id == "" {
		id = strings.Trim(idChars.ReplaceAllString(strings.ToLower(in.Name), "-"), "-_")
		if len(id) > 64 {
			id = strings.Trim(id[:64], "-_")
		}
		if id == "" {
			return configOut{}, errors.New("give config_id, or a name to make one from")
		}
	}
	if id == defaultConfig {
		return configOut{}, errors.New(`config_id "default" is the standard rules and cannot be replaced: save under another id`)
	}
	text, _, _, err := configText(in.YAML)
	if err != nil {
		return configOut{}, err
	}
	c, err := s.m.SaveConfig(ctx, id, in.Name, text)
	if err != nil {
		return configOut{}, err
	}
	s.listConfig(c.ID)
	s.publish("game://configs", "game://configs/"+c.ID, "game://configs/"+c.ID+"/yaml")
	return describeConfig(c)
}

func (s *Server) deleteConfig(ctx context.Context, _ *mcp.CallToolRequest, in configIDIn) (configDeletedOut, error) {
	if in.ConfigID == defaultConfig {
		return configDeletedOut{}, errors.New(`config_id "default" is the standard rules and cannot be deleted`)
	}
	err := s.m.DeleteConfig(ctx, in.ConfigID)
	if errors.Is(err, session.ErrNotFound) {
		return configDeletedOut{}, fmt.Errorf("config_id %q: no such config; game://configs lists them", in.ConfigID)
	}
	if err != nil {
		return configDeletedOut{}, err
	}
	s.mcp.RemoveResources("game://configs/" + in.ConfigID)
	s.publish("game://configs", "game://configs/"+in.ConfigID, "game://configs/"+in.ConfigID+"/yaml")
	return configDeletedOut{ConfigID: in.ConfigID, Deleted: true}, nil
}

// listConfig lists a saved config among the resources.
func (s *Server) listConfig(id string) {
	s.mcp.AddResource(&mcp.Resource{URI: "game://configs/" + id, Name: "config " + id, MIMEType: mimeJSON,
		Description: "a saved rules config"}, s.readResource)
}

// config returns a saved config, or the standard rules for "default".
func (s *Server) config(ctx context.Context, id string) (session.Config, error) {
	if id == defaultConfig {
		return session.Config{ID: defaultConfig, Name: "the standard rules", Created: s.started.UTC()}, nil
	}
	c, err := s.m.Config(ctx, id)
	if errors.Is(err, session.ErrNotFound) {
		return c, fmt.Errorf("no config %q; game://configs lists them", id)
	}
	return c, err
}

// describeConfig is c with its summary.
func describeConfig(c session.Config) (configOut, error) {
	r, err := compileConfig("config "+c.ID, c.YAML)
	if err != nil {
		return configOut{}, err
	}
	return configOut{ConfigID: c.ID, Name: c.Name, Created: c.Created, YAML: c.YAML, URI: "game://configs/" + c.ID, Summary: summarize(r, c.YAML)}, nil
}

func (s *Server) readConfigs(ctx context.Context, _ *readCtx) (*content, error) {
	cs, err := s.m.Configs(ctx)
	if err != nil {
		return nil, err
	}
	def, _ := s.config(ctx, defaultConfig)
	list := []configOut{}
	for _, c := range append([]session.Config{def}, cs...) {
		out, err := describeConfig(c)
		if err != nil {
			return nil, err
		}
		list = append(list, out)
	}
	return jsonContent(map[string]any{"configs": list})
}

func (s *Server) readConfig(ctx context.Context, rc *readCtx) (*content, error) {
	c, err := s.config(ctx, rc.vars["id"])
	if err != nil {
		return nil, err
	}
	out, err := describeConfig(c)
	if err != nil {
		return nil, err
	}
	return jsonContent(out)
}

func (s *Server) readConfigYAML(ctx context.Context, rc *readCtx) (*content, error) {
	c, err := s.config(ctx, rc.vars["id"])
	if err != nil {
		return nil, err
	}
	r, err := compileConfig("config "+c.ID, c.YAML)
	if err != nil {
		return nil, err
	}
	text, err := normalized(r)
	return &content{mimeYAML, text}, err
}

func (s *Server) readAnnotated(context.Context, *readCtx) (*content, error) {
	return &content{mimeYAML, string(monopoly.DefaultRulesYAML())}, nil
}

func (s *Server) readConfigSchema(context.Context, *readCtx) (*content, error) {
	return jsonContent(configSchema())
}

func (s *Server) readConfigDocs(context.Context, *readCtx) (*content, error) {
	return &content{mimeMarkdown, configDocs()}, nil
}

// normalized is the whole of r as YAML, in block style.
func normalized(r *monopoly.Rules) (string, error) {
	data, err := r.MarshalJSON()
	if err != nil {
		return "", err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", err
	}
	var block func(n *yaml.Node)
	block = func(n *yaml.Node) {
		n.Style &^= yaml.FlowStyle
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
			n.Style &^= yaml.DoubleQuotedStyle
		}
		for _, c := range n.Content {
			block(c)
		}
	}
	block(&doc)
	out, err := yaml.Marshal(&doc)
	return string(out), err
}

// summarize says what r makes of the game, and which keys text sets.
func summarize(r *monopoly.Rules, text string) configSummary {
	sum := configSummary{Squares: len(r.Squares), StartingCash: r.StartingCash, GoSalary: r.GoSalary, MaxRounds: r.MaxRounds,
		Auctions: r.Auctions, DealProtocol: r.DealProtocol.String(), Groups: []string{}, Decks: []string{}, Overrides: []string{}}
	for _, sq := range r.Squares {
		switch sq.Kind {
		case monopoly.KindStreet:
			sum.Streets++
		case monopoly.KindRailroad:
			sum.Railroads++
		case monopoly.KindUtility:
			sum.Utilities++
		}
	}
	for _, g := range r.Groups {
		sum.Groups = append(sum.Groups, g.Name)
	}
	for _, d := range r.Decks {
		sum.Decks = append(sum.Decks, d.Name)
		sum.Cards += len(d.Cards)
	}
	var top map[string]any
	if yaml.Unmarshal([]byte(text), &top) == nil {
		sum.Overrides = slices.Sorted(maps.Keys(top))
	}
	return sum
}

// defaultDoc is the annotated default rules file, parsed: its keys in
// order with their comments, which the schema and the docs are written
// from, so that neither repeats what the rules file says.
func defaultDoc() *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(monopoly.DefaultRulesYAML(), &doc); err != nil || len(doc.Content) == 0 {
		panic(fmt.Sprintf("mcpserver: the embedded rules do not parse: %v", err))
	}
	return doc.Content[0]
}

// comment is a key's comment in the rules file, without its "#".
func comment(k *yaml.Node, v *yaml.Node) string {
	c := v.LineComment
	if c == "" {
		c = k.LineComment
	}
	if c == "" {
		c = k.HeadComment
	}
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#"))
	}
	return strings.TrimSpace(strings.Join(lines, " "))
}

// configEnums are the keys whose values are names, and the names.
var configEnums = map[string][]string{
	"income_tax":    {"flat", "lesser"},
	"deal_protocol": {"open", "sealed"},
	"kind":          {"go", "street", "railroad", "utility", "jail", "action"},
}

// configSchema is the JSON Schema of a rules config, derived from the
// standard rules: every key with the type of its default, the rules
// file's comment as its description, and the enums above. Every key is
// optional (a config sets the keys it changes).
func configSchema() *jsonschema.Schema {
	var value any
	data, err := monopoly.DefaultRules().MarshalJSON()
	if err == nil {
		err = json.Unmarshal(data, &value)
	}
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the standard rules: %v", err))
	}
	s := schemaOfValue("", value)
	s.Schema = "https://json-schema.org/draft/2020-12/schema"
	s.Title = "gopoly rules config"
	s.Description = "keys overlaid on the standard rules; lists replace the standard list whole"
	top := defaultDoc()
	for i := 0; i+1 < len(top.Content); i += 2 {
		if p := s.Properties[top.Content[i].Value]; p != nil {
			p.Description = comment(top.Content[i], top.Content[i+1])
		}
	}
	// counter_offers also takes true (MonopolyBench's number) or false.
	if p := s.Properties["counter_offers"]; p != nil {
		p.Type, p.Types = "", []string{"integer", "boolean"}
	}
	return s
}

// schemaOfValue describes a JSON value of the standard rules: objects
// with the union of their keys, lists by their items' union.
func schemaOfValue(key string, v any) *jsonschema.Schema {
	switch v := v.(type) {
	case map[string]any:
		s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			s.Properties[k] = schemaOfValue(k, v[k])
		}
		return s
	case []any:
		s := &jsonschema.Schema{Type: "array"}
		for _, item := range v {
			s.Items = unionSchema(s.Items, schemaOfValue("", item))
		}
		return s
	case float64:
		if v == float64(int64(v)) {
			return &jsonschema.Schema{Type: "integer"}
		}
		return &jsonschema.Schema{Type: "number"}
	case bool:
		return &jsonschema.Schema{Type: "boolean"}
	case string:
		if e, ok := configEnums[key]; ok {
			return &jsonschema.Schema{Type: "string", Enum: strs(e...)}
		}
		return &jsonschema.Schema{Type: "string"}
	}
	return &jsonschema.Schema{}
}

// unionSchema merges the schemas of two items of one list.
func unionSchema(a, b *jsonschema.Schema) *jsonschema.Schema {
	if a == nil {
		return b
	}
	if a.Type == "object" && b.Type == "object" {
		for k, p := range b.Properties {
			a.Properties[k] = unionSchema(a.Properties[k], p)
		}
		return a
	}
	if a.Type == "array" && b.Type == "array" {
		a.Items = unionSchema(a.Items, b.Items)
	}
	return a
}

// configDocs explains configs, key by key, from the rules file.
func configDocs() string {
	var b strings.Builder
	b.WriteString(`# gopoly rules configs

A config is YAML overlaid on the standard rules: it sets the keys it
changes, and every other key keeps its standard value. A list (the board,
the groups, the decks) replaces the standard list whole. gopoly checks a
config as it reads it: an unknown key, a value of the wrong type or out of
range, or a card effect that does not parse is an error naming the line
and the field.

Workflow: read game://configs/default/annotated, write the keys you change,
check them with validate_config, keep them with save_config, and play by
them with create_game(config_id). create_game also takes the keys directly
as rules. A game keeps its own copy of its rules: changing or deleting a
config later changes no game. game://config-schema is the JSON Schema.

## Keys

| key | standard value | meaning |
| --- | --- | --- |
`)
	top := defaultDoc()
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		val := v.Value
		switch v.Kind {
		case yaml.SequenceNode:
			if len(v.Content) > 0 && v.Content[0].Kind == yaml.ScalarNode {
				parts := make([]string, len(v.Content))
				for j, c := range v.Content {
					parts[j] = c.Value
				}
				val = "[" + strings.Join(parts, ", ") + "]"
			} else {
				val = fmt.Sprintf("a list of %d", len(v.Content))
			}
		case yaml.MappingNode:
			val = "a mapping"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k.Value, val, comment(k, v))
	}
	b.WriteString(`
## Board squares

Each square of board has a name and a kind (go, street, railroad,
utility, jail, action). A street has a group (one of groups), a price and
rent: base, 1 to 4 houses, hotel. Railroads and utilities have a price.
An action square has do: a program of the card-effect language.

## Card effects

A card's do, and an action square's, is a program of commands separated by
";": ADVANCE_TO a square (an index, a quoted name, NEAREST street,
railroad or utility, or NEXT unowned / rent_owed), optionally RENT xN or
RENT DICE xN; TRANSLATE n; PAY n [EACH]; RECEIVE n [EACH]; REPAIRS
per-house per-hotel; GO_TO_JAIL; KEEP (a Get Out of Jail Free card); DRAW
deck; TAX n [OR p%]; JACKPOT. The annotated rules file shows every
standard card.
`)
	return b.String()
}
