// Package storetest is the contract of session.Store as tests: any
// implementation, whatever its backend, must pass Run.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopoly/gopoly/session"
)

// Run tests the store that open returns against the session.Store
// contract. open is called once per subtest and must return a new, empty
// store; Run closes it when the subtest ends (cleanups open registers run
// after that).
func Run(t *testing.T, open func(t *testing.T) session.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s session.Store)
	}{
		{"CreateLoad", testCreateLoad},
		{"CreateExists", testCreateExists},
		{"LoadMissing", testLoadMissing},
		{"Append", testAppend},
		{"AppendConflict", testAppendConflict},
		{"AppendMissing", testAppendMissing},
		{"RacingAppends", testRacingAppends},
		{"ConcurrentWriters", testConcurrentWriters},
		{"List", testList},
		{"Delete", testDelete},
		{"Configs", testConfigs},
		{"LargeEntries", testLargeEntries},
		{"LongLog", testLongLog},
		{"Unicode", testUnicode},
		{"TimePrecision", testTimePrecision},
		{"ContextCanceled", testContextCanceled},
		{"LoadFrom", testLoadFrom},
		{"Leases", testLeases},
		{"Secrets", testSecrets},
		{"Paces", testPaces},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, s)
		})
	}
}

// base is a fixed instant with nanoseconds, so that any loss of precision
// shows.
var base = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)

// record returns a session record as the session package would make it.
func record(id string, created time.Time) session.Record {
	return session.Record{
		ID:      id,
		Version: 1,
		Setup:   json.RawMessage(`{"seed":42,"seats":[{"name":"Ann","kind":"human"},{"name":"shark","kind":"bot"}]}`),
		Tokens:  json.RawMessage(`["t0-secret","t1-secret"]`),
		Created: created,
		Status: session.Status{
			Updated: created,
			Digest:  "sha256:0000",
			Winner:  -1,
			Waiting: 0,
			Summary: "waiting for Ann (human)",
		},
	}
}

// entries returns n entries numbered from first, by who.
func entries(who string, first, n int) []session.Entry {
	es := make([]session.Entry, n)
	for i := range es {
		k := first + i
		es[i] = session.Entry{
			Seat:    k % 4,
			Action:  json.RawMessage(fmt.Sprintf(`{"kind":"roll","n":%d}`, k)),
			Speech:  fmt.Sprintf("%s says %d", who, k),
			Thought: fmt.Sprintf("%s thinks %d", who, k),
			By:      who,
			At:      base.Add(time.Duration(k)*time.Second + time.Duration(k)),
		}
		if k%3 == 1 { // a research record on some entries, none on the others
			es[i].Research = json.RawMessage(fmt.Sprintf(`{"calls":[{"prompt":"p%d"}]}`, k))
		}
	}
	return es
}

// status returns the status after n entries.
func status(n int, at time.Time) session.Status {
	return session.Status{
		Updated: at,
		Entries: n,
		Digest:  fmt.Sprintf("sha256:%04d", n),
		Turn:    n / 3,
		Round:   n / 12,
		Winner:  -1,
		Waiting: n % 4,
		Summary: fmt.Sprintf("after %d answers", n),
	}
}

// ctx is the context of the tests' calls.
func ctx(t *testing.T) context.Context { return t.Context() }

// wantErr fails t unless err is target, wrapped with a "store:" prefix.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got %v, want %v", what, err, target)
	}
	if !strings.HasPrefix(err.Error(), "store:") {
		t.Errorf("%s: error %q lacks the store: prefix", what, err)
	}
}

// must fails t on err.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// checkRecord compares records, times with time.Equal and in UTC.
func checkRecord(t *testing.T, got, want session.Record) {
	t.Helper()
	if got.ID != want.ID || got.Version != want.Version || got.Parent != want.Parent {
		t.Errorf("record: got id %q version %d parent %q, want %q %d %q",
			got.ID, got.Version, got.Parent, want.ID, want.Version, want.Parent)
	}
	if !bytes.Equal(got.Setup, want.Setup) || !bytes.Equal(got.Tokens, want.Tokens) {
		t.Errorf("record %s: got setup %s tokens %s, want %s %s", want.ID, got.Setup, got.Tokens, want.Setup, want.Tokens)
	}
	checkTime(t, "record "+want.ID+" created", got.Created, want.Created)
	checkStatus(t, "record "+want.ID, got.Status, want.Status)
}

// checkStatus compares statuses.
func checkStatus(t *testing.T, what string, got, want session.Status) {
	t.Helper()
	checkTime(t, what+" updated", got.Updated, want.Updated)
	got.Updated, want.Updated = time.Time{}, time.Time{}
	if got != want {
		t.Errorf("%s: status\n got %+v\nwant %+v", what, got, want)
	}
}

// checkTime compares instants and wants UTC back.
func checkTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
	if !got.IsZero() && got.Location() != time.UTC {
		t.Errorf("%s: got location %v, want UTC", what, got.Location())
	}
}

// checkLog compares logs.
func checkLog(t *testing.T, what string, got, want []session.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d entries, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		checkTime(t, fmt.Sprintf("%s entry %d at", what, i), g.At, w.At)
		if g.Seat != w.Seat || !bytes.Equal(g.Action, w.Action) || g.Speech != w.Speech || g.Thought != w.Thought || g.By != w.By || !bytes.Equal(g.Research, w.Research) {
			t.Fatalf("%s: entry %d\n got %+v\nwant %+v", what, i, g, w)
		}
	}
}

func testCreateLoad(t *testing.T, s session.Store) {
	rec := record("g1", base)
	log := entries("bot:shark", 0, 3)
	rec.Status = status(3, base.Add(time.Minute))
	must(t, "Create", s.Create(ctx(t), rec, log))
	got, gotLog, err := s.Load(ctx(t), "g1")
	must(t, "Load", err)
	checkRecord(t, got, rec)
	checkLog(t, "Load", gotLog, log)

	// A fork: a parent, no log yet, no setup JSON at all.
	fork := record("g1-fork", base.Add(time.Hour))
	fork.Parent, fork.Setup, fork.Tokens = "g1", nil, nil
	must(t, "Create fork", s.Create(ctx(t), fork, nil))
	got, gotLog, err = s.Load(ctx(t), "g1-fork")
	must(t, "Load fork", err)
	checkRecord(t, got, fork)
	if len(gotLog) != 0 {
		t.Errorf("fork log: got %d entries, want none", len(gotLog))
	}
	if got.Setup != nil || got.Tokens != nil {
		t.Errorf("fork: got setup %q tokens %q, want nil", got.Setup, got.Tokens)
	}

	// A game that is over keeps its winner.
	done := record("g-done", base)
	done.Status = status(2, base)
	done.Status.Over, done.Status.Winner, done.Status.Waiting = true, 1, -1
	must(t, "Create done", s.Create(ctx(t), done, entries("human", 0, 2)))
	got, _, err = s.Load(ctx(t), "g-done")
	must(t, "Load done", err)
	checkRecord(t, got, done)
}

func testCreateExists(t *testing.T, s session.Store) {
	rec := record("dup", base)
	rec.Status = status(2, base)
	must(t, "Create", s.Create(ctx(t), rec, entries("a", 0, 2)))
	other := record("dup", base.Add(time.Hour))
	other.Status = status(5, base.Add(time.Hour))
	wantErr(t, "Create again", s.Create(ctx(t), other, entries("b", 0, 5)), session.ErrExists)
	got, log, err := s.Load(ctx(t), "dup")
	must(t, "Load", err)
	checkRecord(t, got, rec)
	checkLog(t, "Load", log, entries("a", 0, 2))
}

func testLoadMissing(t *testing.T, s session.Store) {
	_, _, err := s.Load(ctx(t), "nope")
	wantErr(t, "Load missing", err, session.ErrNotFound)
}

func testAppend(t *testing.T, s session.Store) {
	rec := record("g", base)
	rec.Status = status(1, base)
	must(t, "Create", s.Create(ctx(t), rec, entries("a", 0, 1)))
	n := 1
	for i, k := range []int{1, 4, 2, 1} {
		st := status(n+k, base.Add(time.Duration(i+1)*time.Minute))
		must(t, "Append", s.Append(ctx(t), "g", n, entries("a", n, k), st))
		n += k
		got, log, err := s.Load(ctx(t), "g")
		must(t, "Load", err)
		checkStatus(t, "after append", got.Status, st)
		checkLog(t, "after append", log, entries("a", 0, n))
	}
	// An append of no entries only replaces the status.
	st := status(n, base.Add(time.Hour))
	st.Over, st.Winner, st.Waiting, st.Summary = true, 2, -1, "Ann won"
	must(t, "Append nothing", s.Append(ctx(t), "g", n, nil, st))
	got, log, err := s.Load(ctx(t), "g")
	must(t, "Load", err)
	checkStatus(t, "after empty append", got.Status, st)
	checkLog(t, "after empty append", log, entries("a", 0, n))
	want := rec
	want.Status = st
	checkRecord(t, got, want)
}

func testAppendConflict(t *testing.T, s session.Store) {
	rec := record("g", base)
	rec.Status = status(3, base)
	must(t, "Create", s.Create(ctx(t), rec, entries("a", 0, 3)))
	for _, from := range []int{0, 2, 4, 100, -1} {
		err := s.Append(ctx(t), "g", from, entries("b", from, 2), status(from+2, base.Add(time.Hour)))
		wantErr(t, fmt.Sprintf("Append from %d", from), err, session.ErrConflict)
	}
	got, log, err := s.Load(ctx(t), "g")
	must(t, "Load", err)
	checkRecord(t, got, rec)
	checkLog(t, "after conflicts", log, entries("a", 0, 3))
	must(t, "Append at the end", s.Append(ctx(t), "g", 3, entries("a", 3, 1), status(4, base)))
}

func testAppendMissing(t *testing.T, s session.Store) {
	wantErr(t, "Append to missing", s.Append(ctx(t), "nope", 0, entries("a", 0, 1), status(1, base)), session.ErrNotFound)
	if _, _, err := s.Load(ctx(t), "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("Append to a missing session created it: %v", err)
	}
}

// testRacingAppends: of two appends at the same point, exactly one wins,
// round after round.
func testRacingAppends(t *testing.T, s session.Store) {
	must(t, "Create", s.Create(ctx(t), record("race", base), nil))
	n := 0
	for round := range 20 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range 2 {
			wg.Go(func() {
				who := fmt.Sprintf("w%d", w)
				errs[w] = s.Append(ctx(t), "race", n, entries(who, n, 2), status(n+2, base))
			})
		}
		wg.Wait()
		won := -1
		for w, err := range errs {
			switch {
			case err == nil:
				if won >= 0 {
					t.Fatalf("round %d: both appends at %d won", round, n)
				}
				won = w
			case errors.Is(err, session.ErrConflict):
			default:
				t.Fatalf("round %d: append: %v", round, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no append at %d won: %v", round, n, errs)
		}
		_, log, err := s.Load(ctx(t), "race")
		must(t, "Load", err)
		if len(log) != n+2 {
			t.Fatalf("round %d: log has %d entries, want %d", round, len(log), n+2)
		}
		for _, e := range log[n:] {
			if e.By != fmt.Sprintf("w%d", won) {
				t.Fatalf("round %d: entry by %s in the winner w%d's place", round, e.By, won)
			}
		}
		n += 2
	}
}

// testConcurrentWriters: writers that reload and retry on conflict all get
// their entries in, each exactly once and in its own order.
func testConcurrentWriters(t *testing.T, s session.Store) {
	const writers, each = 4, 15
	must(t, "Create", s.Create(ctx(t), record("busy", base), nil))
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := range writers {
		who := fmt.Sprintf("w%d", w)
		wg.Go(func() {
			for i := 0; i < each; {
				_, log, err := s.Load(ctx(t), "busy")
				if err != nil {
					errc <- err
					return
				}
				e := entries(who, i, 1)
				err = s.Append(ctx(t), "busy", len(log), e, status(len(log)+1, base))
				switch {
				case err == nil:
					i++
				case !errors.Is(err, session.ErrConflict):
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	rec, log, err := s.Load(ctx(t), "busy")
	must(t, "Load", err)
	if len(log) != writers*each || rec.Status.Entries != writers*each {
		t.Fatalf("got %d entries (status %d), want %d", len(log), rec.Status.Entries, writers*each)
	}
	next := map[string]int{}
	for _, e := range log {
		want := entries(e.By, next[e.By], 1)[0]
		if e.Speech != want.Speech {
			t.Fatalf("%s: got %q, want %q (lost or duplicated entry)", e.By, e.Speech, want.Speech)
		}
		next[e.By]++
	}
}

func testList(t *testing.T, s session.Store) {
	recs, err := s.List(ctx(t))
	must(t, "List empty", err)
	if len(recs) != 0 {
		t.Fatalf("List of an empty store: %d records", len(recs))
	}
	for i, id := range []string{"a", "b", "c"} {
		rec := record(id, base.Add(time.Duration(i)*time.Minute))
		must(t, "Create", s.Create(ctx(t), rec, entries(id, 0, i)))
	}
	ids := func() string {
		t.Helper()
		recs, err := s.List(ctx(t))
		must(t, "List", err)
		var ids []string
		for _, r := range recs {
			ids = append(ids, r.ID)
		}
		return strings.Join(ids, ",")
	}
	if got := ids(); got != "c,b,a" {
		t.Fatalf("List: got %s, want c,b,a (newest first)", got)
	}
	// Playing a session makes it the newest.
	st := status(1, base.Add(time.Hour))
	must(t, "Append", s.Append(ctx(t), "a", 0, entries("a", 0, 1), st))
	if got := ids(); got != "a,c,b" {
		t.Fatalf("List after playing a: got %s, want a,c,b", got)
	}
	// One nanosecond is enough to be newer.
	must(t, "Append", s.Append(ctx(t), "b", 1, entries("b", 1, 1), status(2, base.Add(time.Hour+1))))
	if got := ids(); got != "b,a,c" {
		t.Fatalf("List after playing b: got %s, want b,a,c", got)
	}
	recs, err = s.List(ctx(t))
	must(t, "List", err)
	checkStatus(t, "listed a", recs[1].Status, st)
	want := record("a", base)
	want.Status = st
	checkRecord(t, recs[1], want)
}

func testDelete(t *testing.T, s session.Store) {
	rec := record("g", base)
	rec.Status = status(5, base)
	must(t, "Create", s.Create(ctx(t), rec, entries("a", 0, 5)))
	must(t, "Create other", s.Create(ctx(t), record("other", base), entries("o", 0, 2)))
	must(t, "Delete", s.Delete(ctx(t), "g"))
	_, _, err := s.Load(ctx(t), "g")
	wantErr(t, "Load deleted", err, session.ErrNotFound)
	wantErr(t, "Delete again", s.Delete(ctx(t), "g"), session.ErrNotFound)
	wantErr(t, "Append to deleted", s.Append(ctx(t), "g", 5, entries("a", 5, 1), status(6, base)), session.ErrNotFound)
	// The log went with its session: the id starts afresh.
	must(t, "Create again", s.Create(ctx(t), record("g", base), nil))
	_, log, err := s.Load(ctx(t), "g")
	must(t, "Load recreated", err)
	if len(log) != 0 {
		t.Fatalf("recreated session has %d entries of the deleted one", len(log))
	}
	must(t, "Append to recreated", s.Append(ctx(t), "g", 0, entries("b", 0, 1), status(1, base)))
	// Other sessions are untouched.
	_, log, err = s.Load(ctx(t), "other")
	must(t, "Load other", err)
	checkLog(t, "other", log, entries("o", 0, 2))
	recs, err := s.List(ctx(t))
	must(t, "List", err)
	if len(recs) != 2 {
		t.Fatalf("List: %d records, want 2", len(recs))
	}
}

func testConfigs(t *testing.T, s session.Store) {
	cs, err := s.Configs(ctx(t))
	must(t, "Configs empty", err)
	if len(cs) != 0 {
		t.Fatalf("Configs of an empty store: %d", len(cs))
	}
	_, err = s.Config(ctx(t), "house")
	wantErr(t, "Config missing", err, session.ErrNotFound)
	wantErr(t, "DeleteConfig missing", s.DeleteConfig(ctx(t), "house"), session.ErrNotFound)

	house := session.Config{ID: "house", Name: "House rules", YAML: "free_parking_pot: true\nstart_cash: 2000\n", Created: base}
	fast := session.Config{ID: "fast", Name: "Fast — «rapide»", YAML: "max_rounds: 50\n", Created: base.Add(1)}
	must(t, "SaveConfig", s.SaveConfig(ctx(t), house))
	must(t, "SaveConfig", s.SaveConfig(ctx(t), fast))
	got, err := s.Config(ctx(t), "house")
	must(t, "Config", err)
	checkConfig(t, got, house)

	// Saving under the same id replaces.
	house2 := session.Config{ID: "house", Name: "House rules v2", YAML: "start_cash: 1000\n", Created: base.Add(time.Hour)}
	must(t, "SaveConfig replace", s.SaveConfig(ctx(t), house2))
	got, err = s.Config(ctx(t), "house")
	must(t, "Config", err)
	checkConfig(t, got, house2)

	cs, err = s.Configs(ctx(t))
	must(t, "Configs", err)
	if len(cs) != 2 {
		t.Fatalf("Configs: %d, want 2", len(cs))
	}
	checkConfig(t, cs[0], fast) // by id
	checkConfig(t, cs[1], house2)

	must(t, "DeleteConfig", s.DeleteConfig(ctx(t), "house"))
	_, err = s.Config(ctx(t), "house")
	wantErr(t, "Config deleted", err, session.ErrNotFound)
	cs, err = s.Configs(ctx(t))
	must(t, "Configs", err)
	if len(cs) != 1 || cs[0].ID != "fast" {
		t.Fatalf("Configs after delete: %+v", cs)
	}
}

// checkConfig compares configs.
func checkConfig(t *testing.T, got, want session.Config) {
	t.Helper()
	checkTime(t, "config "+want.ID+" created", got.Created, want.Created)
	got.Created, want.Created = time.Time{}, time.Time{}
	if got != want {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
}

func testLargeEntries(t *testing.T, s session.Store) {
	big := strings.Repeat("Boardwalk with a hotel, ", 1<<16) // 1.5 MB
	action := json.RawMessage(`{"kind":"offer","note":"` + strings.Repeat("x", 1<<20) + `"}`)
	log := []session.Entry{{Seat: 1, Action: action, Speech: big, Thought: big[:1000], By: "bot:professor", At: base}}
	must(t, "Create", s.Create(ctx(t), record("big", base), log))
	more := []session.Entry{{Seat: 2, Action: action, Speech: "ok", Thought: big, By: "human", At: base.Add(1)}}
	must(t, "Append", s.Append(ctx(t), "big", 1, more, status(2, base)))
	_, got, err := s.Load(ctx(t), "big")
	must(t, "Load", err)
	checkLog(t, "big", got, append(log, more...))
}

// testLongLog: more entries than one INSERT carries, both when created
// (a fork of a long game) and when appended.
func testLongLog(t *testing.T, s session.Store) {
	log := entries("bot:turtle", 0, 1234)
	must(t, "Create", s.Create(ctx(t), record("long", base), log))
	more := entries("bot:turtle", 1234, 1100)
	must(t, "Append", s.Append(ctx(t), "long", 1234, more, status(2334, base)))
	rec, got, err := s.Load(ctx(t), "long")
	must(t, "Load", err)
	checkLog(t, "long", got, entries("bot:turtle", 0, 2334))
	if rec.Status.Entries != 2334 {
		t.Errorf("status entries %d, want 2334", rec.Status.Entries)
	}
}

func testUnicode(t *testing.T, s session.Store) {
	speech := []string{
		"Ça, c'est une affaire ! 🎩💰",
		"我买下这块地。",
		"أشتري هذا الشارع",
		"Zoë’s “deal”: e\u0301 — 𝔐𝔬𝔫𝔬𝔭𝔬𝔩𝔶 👨‍👩‍👧‍👦",
		"line one\nline two\ttabbed \\ 'quoted' \"double\" ? $1 %s",
		"",
	}
	var log []session.Entry
	for i, sp := range speech {
		log = append(log, session.Entry{
			Seat:    i,
			Action:  json.RawMessage(`{"say":` + mustJSON(t, sp) + `}`),
			Speech:  sp,
			Thought: "🤔 " + sp,
			By:      "human:Zoë",
			At:      base,
		})
	}
	rec := record("ünïcødé-🎲", base)
	rec.Status.Summary = "waiting for Zoë 🎲 (human)"
	rec.Status.Entries = len(log)
	must(t, "Create", s.Create(ctx(t), rec, log[:3]))
	must(t, "Append", s.Append(ctx(t), rec.ID, 3, log[3:], rec.Status))
	got, gotLog, err := s.Load(ctx(t), rec.ID)
	must(t, "Load", err)
	checkRecord(t, got, rec)
	checkLog(t, "unicode", gotLog, log)
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	must(t, "json", err)
	return string(b)
}

func testTimePrecision(t *testing.T, s session.Store) {
	zone := time.FixedZone("UTC+5:45", 5*3600+45*60)
	times := []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 1, zone),
		time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 123456789, zone),
		time.Date(2261, 6, 1, 0, 0, 0, 7, time.UTC),
		time.Date(1700, 6, 1, 0, 0, 0, 7, time.UTC),
		time.Now(), // with a monotonic reading
		{},         // the zero time
	}
	var log []session.Entry
	for i, at := range times {
		log = append(log, session.Entry{Seat: i, Action: json.RawMessage(`{}`), By: "bot", At: at})
	}
	rec := record("times", times[0])
	rec.Status.Updated = times[2]
	rec.Status.Entries = len(log)
	must(t, "Create", s.Create(ctx(t), rec, log))
	got, gotLog, err := s.Load(ctx(t), "times")
	must(t, "Load", err)
	checkRecord(t, got, rec)
	checkLog(t, "times", gotLog, log)
	if !gotLog[len(gotLog)-1].At.IsZero() {
		t.Errorf("zero time came back as %v", gotLog[len(gotLog)-1].At)
	}
	c := session.Config{ID: "c", YAML: "{}", Created: times[0]}
	must(t, "SaveConfig", s.SaveConfig(ctx(t), c))
	gc, err := s.Config(ctx(t), "c")
	must(t, "Config", err)
	checkConfig(t, gc, c)
}

// testContextCanceled: a canceled call fails and writes nothing.
func testContextCanceled(t *testing.T, s session.Store) {
	must(t, "Create", s.Create(ctx(t), record("g", base), entries("a", 0, 1)))
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	if err := s.Append(c, "g", 1, entries("a", 1, 1), status(2, base)); err == nil {
		t.Fatal("Append with a canceled context succeeded")
	}
	_, log, err := s.Load(ctx(t), "g")
	must(t, "Load", err)
	checkLog(t, "after canceled append", log, entries("a", 0, 1))
}
