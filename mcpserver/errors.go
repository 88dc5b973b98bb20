package mcpserver

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a client is told when a call fails: the message, with the
// client's own input quoted only in part, and without the server's
// files. A tool, the store or the engine may quote the input whole (an
// unknown command, a game id, a uri); a megabyte sent is then not a
// megabyte answered, and the data directory, which a client over HTTP
// has no business knowing, is named only as that.

// Bounds of an echo.
const (
	maxEcho     = 100  // a word longer than this is cut to it
	longWord    = 120  // the words that are cut: longer than this
	maxLineEcho = 1000 // a line longer than this is cut to it
)

// clientError is err as a client reads it.
func (s *Server) clientError(err error) string {
	return capEchoes(s.hidePaths(err.Error()))
}

// hidePaths names the data directory instead of giving its path.
func (s *Server) hidePaths(msg string) string {
	if s.opt.DataDir == "" {
		return msg
	}
	return strings.ReplaceAll(msg, s.opt.DataDir, "(the data directory)")
}

// capEchoes cuts every word (a run without spaces) longer than longWord
// and every line longer than maxLineEcho, saying how long it was: such
// a word is the client's input quoted back, never the server's prose.
func capEchoes(msg string) string {
	if len(msg) <= longWord {
		return msg
	}
	var b strings.Builder
	for i, line := range strings.Split(msg, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		var l strings.Builder
		for len(line) > 0 {
			end := strings.IndexFunc(line, unicode.IsSpace)
			if end == 0 {
				_, n := utf8.DecodeRuneInString(line)
				l.WriteString(line[:n])
				line = line[n:]
				continue
			}
			if end < 0 {
				end = len(line)
			}
			l.WriteString(cut(line[:end], longWord, maxEcho))
			line = line[end:]
		}
		b.WriteString(cut(l.String(), maxLineEcho, maxLineEcho))
	}
	return b.String()
}

// cut is s, or when it is longer than over its first keep bytes (whole
// characters) and its length.
func cut(s string, over, keep int) string {
	if len(s) <= over {
		return s
	}
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:keep], len(s))
}
