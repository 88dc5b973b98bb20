package render

import (
	"strings"
	"unicode/utf8"
)

// Wrap breaks text into lines of at most width columns at spaces: each
// of its lines starts with first, and the lines a long one is broken
// into with rest; a word wider than a line stands alone, and spaces
// between words on one line are kept as they are. ANSI colour codes take
// no columns, so that a coloured log wraps as it reads.
func Wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(first)
		col := columns(first)
		start := true
		for para != "" {
			gap := len(para) - len(strings.TrimLeft(para, " "))
			para = para[gap:]
			end := strings.IndexByte(para, ' ')
			if end < 0 {
				end = len(para)
			}
			word := para[:end]
			para = para[end:]
			if word == "" {
				break // trailing spaces
			}
			n := columns(word)
			switch {
			case start:
			case col+gap+n > width:
				b.WriteString("\n" + rest)
				col = columns(rest)
			default:
				b.WriteString(strings.Repeat(" ", gap))
				col += gap
			}
			b.WriteString(word)
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
