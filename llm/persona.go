package llm

import (
	"embed"
	"fmt"
	"os"
	"strings"
)

// Persona is who an LLM seat plays: a name, the personality text of its
// prompt, how others describe it, and the rule-based bot that answers
// when the model cannot.
type Persona struct {
	Key      string // its configuration key: shark, professor, hustler, turtle, or persona
	Name     string // "The Shark"
	Text     string // the PERSONALITY section's body
	Closing  string // the line that ends the section ("Remember: ...")
	Traits   string // how the others see it, in a few words
	Fallback string // the registered bot that answers for it
}

//go:embed personas/*.txt
var personaFiles embed.FS

// The four personalities of 001, with appendix A's texts and the traits
// its opponent lists give them.
var personas = map[string]Persona{
	"shark":     {Key: "shark", Name: "The Shark", Traits: "aggressive, buys everything, intimidating", Fallback: "shark"},
	"professor": {Key: "professor", Name: "The Professor", Traits: "analytical, quotes probabilities, patient", Fallback: "professor"},
	"hustler":   {Key: "hustler", Name: "The Hustler", Traits: "charismatic, makes lots of trades, unpredictable", Fallback: "hustler"},
	"turtle":    {Key: "turtle", Name: "The Turtle", Traits: "ultra-conservative, hoards cash, rarely trades", Fallback: "turtle"},
}

func init() {
	for k, p := range personas {
		data, err := personaFiles.ReadFile("personas/" + k + ".txt")
		if err != nil {
			panic(err)
		}
		body, closing, _ := strings.Cut(string(data), "---\n")
		p.Text, p.Closing = strings.TrimSpace(body), strings.TrimSpace(closing)
		personas[k] = p
	}
}

// PersonaFor returns the persona of an llm seat's argument: a
// personality's name, or a file holding a persona text of the user's,
// whose first line may be "NAME: ..." to name the player.
func PersonaFor(arg string) (Persona, error) {
	if p, ok := personas[arg]; ok {
		return p, nil
	}
	if arg == "" {
		return Persona{}, fmt.Errorf("name a personality (shark, professor, hustler, turtle) or a persona file: llm:shark, llm:FILE")
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return Persona{}, fmt.Errorf("not a personality (shark, professor, hustler, turtle), and not a persona file: %w", err)
	}
	text := strings.TrimSpace(string(data))
	if text == "" {
		return Persona{}, fmt.Errorf("persona file %s is empty", arg)
	}
	p := Persona{Key: "persona", Name: "The Player", Text: text, Traits: "a player of its own", Fallback: "baseline"}
	if first, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(first, "NAME:") {
		p.Name = strings.TrimSpace(strings.TrimPrefix(first, "NAME:"))
		p.Text = strings.TrimSpace(rest)
	}
	return p, nil
}

// traitsOf describes the player of another seat for the opponents list.
func traitsOf(player string) string {
	key := strings.TrimPrefix(player, "llm:")
	if p, ok := personas[key]; ok {
		return p.Traits
	}
	switch player {
	case "human":
		return "a person"
	case "":
		return "a player"
	}
	return "a " + player + " player"
}
