package render

import (
	"strings"
	"unicode/utf8"
)

// Wrap breaks text into lines of at most width columns at spaces, the
// first line starting with first and the others with rest; a word wider
// than a line stands alone. ANSI colour codes take no columns, so that a
// coloured log wraps as it reads. Lines of text are wrapped each.
func Wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		prefix := first
		if i > 0 {
			prefix = rest
		}
		b.WriteString(prefix)
		col := columns(prefix)
		start := true
		for _, w := range strings.Fields(para) {
			n := columns(w)
			if !start && col+1+n > width {
				b.WriteString("\n" + rest)
				col, start = columns(rest), true
			}
			if !start {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += n
			start = false
		}
	}
	return b.String()
}

// columns is the width of s on a terminal: a column a rune, none for an
// ANSI escape sequence.
func columns(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == '\x1b' {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			i += j + 1
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}
