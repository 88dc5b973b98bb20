package llm

// Cost returns what a call with usage u costs on model, in dollars, by
// the price table; a model without a price costs 0 (a local model) and
// known reports whether it had one.
func (c *Config) Cost(model string, u Usage) (cost float64, known bool) {
	p, ok := c.Prices[model]
	if !ok {
		return 0, false
	}
	cached := p.Cached
	if cached == 0 {
		cached = p.Input
	}
	fresh := max(0, u.Prompt-u.Cached)
	return (float64(fresh)*p.Input + float64(u.Cached)*cached + float64(u.Completion)*p.Output) / 1e6, true
}
