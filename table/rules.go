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
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(r.Text), &doc); err != nil {
		return Rules{}, &Error{Code: CodeBadSetup, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	top := doc.Content[0]
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(n)}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "max_rounds" {
			top.Content[i+1], v = v, nil
		}
	}
	if v != nil {
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "max_rounds"}, v)
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return Rules{}, err
	}
	return ParseRules(name, string(out))
}

// Setup is a session's setup with these rules, checked already.
func (r Rules) Setup(seed uint64, seats []session.Seat) session.Setup {
	return session.Setup{Rules: r.Text, Checked: r.Rules, Seed: seed, Seats: seats}
}
