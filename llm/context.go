package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/gopoly/gopoly/monopoly"
)

// memory is what a seat remembers of its game (001 §5): the public log
// of the table (speech, proposals with their pitch, trade results,
// bankruptcies), summaries of its older turns, and its own last
// thoughts.
type memory struct {
	turn      int                         // the game's turn number
	unread    []monopoly.Event            // heard, not yet read into the log (read with the rules at the next decision)
	public    []line                      // turns from summarizedTo on, verbatim
	summaries []Summary                   // in order, covering the turns before summarizedTo
	upTo      int                         // turns before this are summarised
	thoughts  []line                      // own, newest last
	lastSaid  [monopoly.MaxPlayers]string // each seat's last speech, for the pitch of its offer
}

// line is one entry of a log: the turn and the text (Body is the text
// without its turn, by which repeated lines are told).
type line struct {
	Turn int
	Text string
	Body string
}

// Summary is a summary of a batch of older turns of table talk, made by
// the summariser model and kept in the research log, so that it is never
// made twice for one seat.
type Summary struct {
	From int    `json:"from"` // the first turn covered
	To   int    `json:"to"`   // the last
	Text string `json:"text"`
}

// hear keeps events for the next read: the rules they are read with
// come with the next decision's view.
func (m *memory) hear(evs []monopoly.Event) { m.unread = append(m.unread, evs...) }

// read turns the events heard into lines of the public log, as seat me
// may see them; turn is the game's turn now (the events' turns are
// counted back from it, so that a host that recorded the first turn's
// start or not gives the same numbers).
func (m *memory) read(r *monopoly.Rules, me, turn int, t Table) {
	m.turn = turn
	for _, e := range m.unread {
		if e.Kind == monopoly.EvTurnStart {
			m.turn--
		}
	}
	for _, e := range m.unread {
		e = e.For(me, r)
		switch e.Kind {
		case monopoly.EvTurnStart:
			m.turn++
		case monopoly.EvSpeech:
			if e.Speech != "" {
				body := fmt.Sprintf("%s: %q", t.name(int(e.Player)), e.Speech)
				m.public = append(m.public, line{m.turn, fmt.Sprintf("Turn %d, %s", m.turn, body), body})
				m.lastSaid[e.Player] = e.Speech
			}
		case monopoly.EvTradeProposed, monopoly.EvTradeAccepted, monopoly.EvTradeRejected, monopoly.EvBankrupt, monopoly.EvGameOver:
			body := r.Describe(e, t.Names)
			m.public = append(m.public, line{m.turn, fmt.Sprintf("Turn %d: %s", m.turn, body), body})
		}
	}
	m.unread = m.unread[:0]
}

// remember keeps one of the seat's own thoughts, the last n.
func (m *memory) remember(thought string, n int) {
	if thought == "" {
		return
	}
	m.thoughts = append(m.thoughts, line{Turn: m.turn, Text: thought})
	if len(m.thoughts) > n {
		m.thoughts = m.thoughts[len(m.thoughts)-n:]
	}
}

// due returns the next batch of turns to summarise, if the turns of
// one are all older than the recent window.
func (m *memory) due(batch, recent int) (from, to int, ok bool) {
	from, to = m.upTo, m.upTo+batch-1
	return from, to, to < m.turn-recent
}

// batchText is the public log of turns from..to.
func (m *memory) batchText(from, to int) string {
	var b strings.Builder
	for _, l := range m.public {
		if l.Turn >= from && l.Turn <= to {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// summarised takes in a summary of the turns up to s.To: their lines
// leave the verbatim log.
func (m *memory) summarised(s Summary) {
	m.summaries = append(m.summaries, s)
	m.upTo = s.To + 1
	keep := m.public[:0]
	for _, l := range m.public {
		if l.Turn > s.To {
			keep = append(keep, l)
		}
	}
	m.public = keep
}

// publicSection renders PUBLIC_HISTORY within budget tokens. The
// summaries are the game's memory and are always kept: under pressure the
// verbatim window gives way, its repeated lines collapsed into one, then
// its oldest lines dropped.
func (m *memory) publicSection(recent, budget int) string {
	var head strings.Builder
	if len(m.summaries) > 0 {
		head.WriteString("Earlier in the game:\n")
		for _, s := range m.summaries {
			fmt.Fprintf(&head, "- Turns %d-%d: %s\n", s.From, s.To, s.Text)
		}
	}
	fmt.Fprintf(&head, "Recent table talk and deals (last %d turns):\n", recent)
	lines := collapse(m.public)
	if len(lines) == 0 {
		return head.String() + "(nothing yet)"
	}
	const cut = "(earlier lines cut)\n"
	left := budget*4 - head.Len()
	first := len(lines)
	for first > 0 && left >= len(lines[first-1])+1+len(cut) {
		first--
		left -= len(lines[first]) + 1
	}
	first = min(first, len(lines)-1) // the newest line, whatever the budget
	var b strings.Builder
	b.WriteString(head.String())
	if first > 0 {
		b.WriteString(cut)
	}
	for _, l := range lines[first:] {
		b.WriteString(l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// collapse renders log lines, a line said again and again ("I roll.")
// once, where it was last said, with its turns and its count.
func collapse(log []line) []string {
	last, n := map[string]int{}, map[string]int{}
	turns := map[string][]string{}
	for i, l := range log {
		last[l.Body], n[l.Body] = i, n[l.Body]+1
		t := fmt.Sprint(l.Turn)
		if ts := turns[l.Body]; len(ts) == 0 || ts[len(ts)-1] != t {
			turns[l.Body] = append(ts, t)
		}
	}
	var out []string
	for i, l := range log {
		switch {
		case last[l.Body] != i:
		case n[l.Body] == 1:
			out = append(out, "- "+l.Text)
		default:
			word := "Turn"
			if len(turns[l.Body]) > 1 {
				word = "Turns"
			}
			out = append(out, fmt.Sprintf("- %s %s: %s (%d times)", word, strings.Join(turns[l.Body], ", "), l.Body, n[l.Body]))
		}
	}
	return out
}

// privateSection renders PRIVATE_HISTORY.
func (m *memory) privateSection() string {
	if len(m.thoughts) == 0 {
		return "Your previous strategic thoughts: none yet."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Your previous strategic thoughts (last %d):\n", len(m.thoughts))
	for _, t := range m.thoughts {
		fmt.Fprintf(&b, "- Turn %d: %q\n", t.Turn, t.Text)
	}
	return strings.TrimRight(b.String(), "\n")
}

// summaryCache holds the summaries made in this process by the batch
// they summarise: the seats of one table hear the same talk, so one
// call serves them all.
var summaryCache sync.Map // sha256 of model and batch -> string

// summarise makes the summary of turns from..to, from the cache or by a
// call to the summariser, which is recorded in rec. A failed call gives
// a plain note instead, so that the game goes on and the turns are
// never summarised again.
func (s *Seat) summarise(ctx context.Context, from, to int, rec *Record) Summary {
	text := s.mem.batchText(from, to)
	sum := Summary{From: from, To: to}
	if strings.TrimSpace(text) == "" {
		sum.Text = "nothing was said and no deal was proposed."
		return sum
	}
	h := sha256.Sum256([]byte(s.cfg.Summarizer.Model + "\x00" + text))
	key := hex.EncodeToString(h[:])
	if v, ok := summaryCache.Load(key); ok {
		sum.Text = v.(string)
		rec.Calls = append(rec.Calls, CallRecord{Purpose: "summary", Model: s.cfg.Summarizer.Model, Cached: true, Answer: sum.Text})
		return sum
	}
	req := Request{
		Model:       s.cfg.Summarizer.Model,
		System:      "You summarise the table talk of a Monopoly game for one of its players.",
		Messages:    []Message{{Role: "user", Text: "Summarise these turns in 2-3 sentences: the key negotiations, trade outcomes and notable events. Answer {\"summary\": \"...\"}.\n\n" + text}},
		Schema:      summarySchema,
		Tool:        "summarize",
		Temperature: s.cfg.Summarizer.Temperature,
		MaxTokens:   s.cfg.Summarizer.MaxTokens,
	}
	call := s.call(ctx, "summary", s.cfg.Summarizer, req, rec)
	var out struct {
		Summary string `json:"summary"`
	}
	if call.Error == "" && json.Unmarshal([]byte(stripFences(call.Answer)), &out) == nil && strings.TrimSpace(out.Summary) != "" {
		sum.Text = strings.TrimSpace(out.Summary)
		summaryCache.Store(key, sum.Text)
		return sum
	}
	sum.Text = fmt.Sprintf("(not summarised: %d lines of talk and deals)", strings.Count(text, "\n"))
	return sum
}
