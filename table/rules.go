package table

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
)

// Rules are a new game's rules: the text a session keeps, and the rules
// it compiles to, checked once, here, with the name of where they came
// from in errors (a file, a config).
type Rules struct {
	Text  string
	Rules *monopoly.Rules
}

// ParseRules checks rules text, YAML overlaid on the default rules,
// naming it name in errors.
func ParseRules(name, text string) (Rules, error) {
	r, err := session.ParseRules(name, text)
	if err != nil {
		return Rules{}, &Error{Code: CodeBadSetup, Err: err}
	}
	return Rules{Text: text, Rules: r}, nil
}

// WithMaxRounds returns the rules with max_rounds set to n, the rest of
// the document as it was: the round limit a front end's own flag or
// argument gives on top of a rules file.
func (r Rules) WithMaxRounds(name string, n int) (Rules, error) {
	return r.With(name, fmt.Sprintf("max_rounds: %d\n", n))
}

// With returns the rules with the keys of the YAML document text, named
// name in errors, in place of theirs: a rules file on top of a preset.
// text is checked on top of the compiled rules first, so that an error,
// one the two make together included, names text's own line.
func (r Rules) With(name, text string) (Rules, error) {
	under := r.Rules
	if under == nil { // not compiled yet: what they say is checked below
		under = monopoly.DefaultRules()
	}
	if _, err := under.WithOverrides(name, []byte(text)); err != nil {
		return Rules{}, &Error{Code: CodeBadSetup, Err: err}
	}
	base, err := topMapping(name, r.Text)
	if err != nil {
		return Rules{}, err
	}
	over, err := topMapping(name, text)
	if err != nil {
		return Rules{}, err
	}
	top := base.Content[0]
	for j := 0; j+1 < len(over.Content[0].Content); j += 2 {
		k, v := over.Content[0].Content[j], over.Content[0].Content[j+1]
		i := 0
		for i < len(top.Content) && top.Content[i].Value != k.Value {
			i += 2
		}
		if i < len(top.Content) {
			top.Content[i+1] = v
		} else {
			top.Content = append(top.Content, k, v)
		}
	}
	out, err := yaml.Marshal(base)
	if err != nil {
		return Rules{}, err
	}
	return ParseRules(name, string(out))
}

// topMapping is the YAML document text, parsed; empty text is a document
// holding an empty mapping.
func topMapping(name, text string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, &Error{Code: CodeBadSetup, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	return &doc, nil
}

// Setup is a session's setup with these rules, checked already.
func (r Rules) Setup(seed uint64, seats []session.Seat) session.Setup {
	return session.Setup{Rules: r.Text, Checked: r.Rules, Seed: seed, Seats: seats}
}
