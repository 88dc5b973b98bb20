// Package docs holds the documentation pages; its test keeps them and the
// README honest: every relative link resolves, every page is in the
// index, and nothing points outside the repository.
package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is the README's budget: an introduction, not a manual.
const readmeMaxLines = 300

// outside are paths a user of the repository does not have.
var outside = []string{"../shared", "/work/shared"}

// pages returns the README and every page of docs/, as paths from the
// repository's root (this test runs in docs/).
func pages(t *testing.T) []string {
	t.Helper()
	files := []string{"../README.md"}
	ds, err := mdFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		files = append(files, "../docs/"+d)
	}
	return files
}

// mdFiles lists the pages of docs/ (this test runs there).
func mdFiles() ([]string, error) {
	es, err := os.ReadDir(".")
	var names []string
	for _, e := range es {
		if !e.IsDir() && path.Ext(e.Name()) == ".md" {
			names = append(names, e.Name())
		}
	}
	return names, err
}

var (
	// linkRE finds inline links and images: [text](target) and
	// ![alt](target), the target up to a space or a closing parenthesis.
	linkRE    = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	headingRE = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	fenceRE   = regexp.MustCompile("(?ms)^```.*?^```")
	codeRE    = regexp.MustCompile("`[^`\n]*`")
	// linkTextRE keeps a link's text in a heading.
	linkTextRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// prose returns the text of a page outside code, where links are links.
func prose(text string) string {
	return codeRE.ReplaceAllString(fenceRE.ReplaceAllString(text, ""), "")
}

// slug is the anchor GitHub gives a heading: lower case, code marks and
// link targets dropped, every character but letters, marks, digits,
// connectors (underscores), spaces and hyphens dropped, spaces turned to
// hyphens.
func slug(heading string) string {
	heading = linkTextRE.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a page's headings, with GitHub's -1, -2
// suffixes for repeated ones.
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range headingRE.FindAllStringSubmatch(fenceRE.ReplaceAllString(text, ""), -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// deadLinks returns the relative links of the page at file (text its
// content) that do not resolve: a missing file or directory, or an
// anchor that no heading of the target page gives.
func deadLinks(file, text string) []string {
	var dead []string
	for _, m := range linkRE.FindAllStringSubmatch(prose(text), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		ref, anchor, _ := strings.Cut(target, "#")
		resolved, body := file, text
		if ref != "" {
			resolved = path.Join(path.Dir(file), ref)
			if _, err := os.Stat(resolved); err != nil {
				dead = append(dead, target+": no such file")
				continue
			}
			body = ""
			if anchor != "" {
				b, err := os.ReadFile(resolved)
				if err != nil {
					dead = append(dead, target+": "+err.Error())
					continue
				}
				body = string(b)
			}
		}
		if anchor != "" && !anchors(body)[anchor] {
			dead = append(dead, target+": no heading gives #"+anchor)
		}
	}
	return dead
}

// Every relative link of the README and of the docs pages resolves, to a
// file and to a heading, and none of them names a place outside the
// repository.
func TestLinksResolve(t *testing.T) {
	for _, f := range pages(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deadLinks(f, string(b)) {
			t.Errorf("%s: dead link %s", f, d)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, o := range outside {
				if strings.Contains(line, o) {
					t.Errorf("%s:%d: names %s, which a user of the repository does not have", f, i+1, o)
				}
			}
		}
	}
}

// The checker itself finds what it must: a missing file, a missing
// heading, and links in code left alone.
func TestDeadLinksFound(t *testing.T) {
	page := "../docs/x.md"
	text := "# Title\n\n## A `code` heading: yes\n\n" +
		"[ok](#title) [ok](#a-code-heading-yes) [ok](rules.md#deals) [ok](../README.md) [ok](https://example.org/x)\n" +
		"[bad](nowhere.md) [bad](#nothing) [bad](rules.md#nothing)\n" +
		"`[code](nowhere-either.md)`\n"
	got := deadLinks(page, text)
	want := []string{"nowhere.md: no such file", "#nothing: no heading gives #nothing", "rules.md#nothing: no heading gives #nothing"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("dead links %q, want %q", got, want)
	}
}

// Every page of docs/ is in the index.
func TestIndexListsEveryPage(t *testing.T) {
	index, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := mdFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d != "README.md" && !strings.Contains(string(index), "]("+d+")") {
			t.Errorf("docs/README.md does not link %s", d)
		}
	}
}

// The README stays an introduction, keeps the quick start that CI and
// newcomers run, and links the index.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if n := strings.Count(text, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to docs/", n, readmeMaxLines)
	}
	for _, want := range []string{
		"## Quick start",
		"go run ./cmd/gopoly serve",
		"go test ./...",
		"(docs/README.md)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// installCmd is the README's install command: the quick start's
// binary, stripped.
const installCmd = `go install -trimpath -ldflags="-s -w" ./cmd/gopoly`

// The README says how to install the binary, and the MCP page's client
// configuration is JSON a client can start: the binary by an absolute
// path (clients start servers without the shell's PATH) and the data
// directory through "env" (nor do they pass its environment).
func TestInstall(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "## Install") || !strings.Contains(string(readme), installCmd) {
		t.Errorf("README.md lacks an Install section with %s", installCmd)
	}
	page, err := os.ReadFile("mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	var snippet string
	for _, block := range fenceRE.FindAllString(string(page), -1) {
		if strings.HasPrefix(block, "```json") && strings.Contains(block, "mcpServers") {
			snippet = strings.TrimSuffix(strings.TrimPrefix(block, "```json"), "```")
			break
		}
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	d := json.NewDecoder(strings.NewReader(snippet))
	d.DisallowUnknownFields()
	if err := d.Decode(&cfg); err != nil {
		t.Fatalf("mcp.md's client configuration is not the JSON a client reads: %v\n%s", err, snippet)
	}
	s, ok := cfg.MCPServers["gopoly"]
	switch {
	case !ok:
		t.Errorf("mcp.md's client configuration has no gopoly server: %s", snippet)
	case !path.IsAbs(s.Command) || path.Base(s.Command) != "gopoly":
		t.Errorf("the command %q is not the binary's absolute path", s.Command)
	case len(s.Args) == 0 || s.Args[0] != "mcp":
		t.Errorf("the args %q do not start the MCP server", s.Args)
	case !path.IsAbs(s.Env["GOPOLY_HOME"]):
		t.Errorf("the env %v does not give GOPOLY_HOME as an absolute path", s.Env)
	}
	if !strings.Contains(string(page), installCmd) {
		t.Errorf("mcp.md does not say how to install the binary (%s)", installCmd)
	}
}
