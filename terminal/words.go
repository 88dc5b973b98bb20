package terminal

import (
	"io"
	"os"
	"regexp"
	"strconv"

	"golang.org/x/term"
)

// phrases are the moves a person types in words where the notation
// joins them with an underscore ("pay fine" for pay_fine); a command
// phrase counts only at the start of a line, "jail card" anywhere.
var phrases = []struct {
	re   *regexp.Regexp
	word string
}{
	{regexp.MustCompile(`(?i)^\s*pay\s+(?:the\s+)?(?:jail\s+)?fine\b`), "pay_fine"},
	{regexp.MustCompile(`(?i)^\s*use\s+(?:the\s+|a\s+)?(?:jail\s+)?card\b`), "use_card"},
	{regexp.MustCompile(`(?i)^\s*roll\s+(?:for\s+)?doubles\b`), "roll_doubles"},
	{regexp.MustCompile(`(?i)^\s*lift\s+(?:the\s+)?mortgage\b`), "lift_mortgage"},
	{regexp.MustCompile(`(?i)^\s*drop\s+out\b`), "pass"},
	{regexp.MustCompile(`(?i)\bjail\s+card\b`), "jail_card"},
}

// typed is a line as the notation reads it, the moves typed in words
// joined as its command words are.
func typed(line string) string {
	for _, p := range phrases {
		line = p.re.ReplaceAllString(line, p.word)
	}
	return line
}

// Width is how many columns lines written to w may take: the
// terminal's, else $COLUMNS, else 80.
func Width(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}
