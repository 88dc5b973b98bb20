package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/gopoly/gopoly/agent/bots"
	_ "github.com/gopoly/gopoly/agent/personality"
	"github.com/gopoly/gopoly/deal"
	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
	"github.com/gopoly/gopoly/table"
)

// testServer is a server of a fresh SQLite store, and its HTTP test
// server.
type testServer struct {
	*Server
	http *httptest.Server
	m    *session.Manager
}

// newTestServer serves hosts besides its own address (--allowed-hosts).
func newTestServer(t testing.TB, hosts ...string) *testServer {
	t.Helper()
	allowed, err := hostcheck.Parse(hosts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(st, session.Options{Research: true})
	lm, err := lab.NewManager(filepath.Join(t.TempDir(), "experiments"), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Sessions: m, Lab: lm, DealDir: filepath.Join(t.TempDir(), "deal"), Hosts: allowed})
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		lm.Close()
		s.Close()
		hs.Close()
		st.Close()
	})
	return &testServer{Server: s, http: hs, m: m}
}

// do sends a request from the page's scripts: JSON, the anti-forgery
// header, and the token.
func (ts *testServer) do(t *testing.T, method, path, tok string, body any) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, ts.http.URL+path, rd)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Gopoly-CSRF", ts.csrf)
	if tok != "" {
		req.Header.Set("X-Gopoly-Token", tok)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, data
}

// form posts the lobby's new-game form with the fields (and a rules
// file when rules is not empty).
func (ts *testServer) form(t *testing.T, fields map[string]string, rules string, csrf bool) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if csrf {
		mw.WriteField("csrf", ts.csrf)
	}
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if rules != "" {
		fw, _ := mw.CreateFormFile("rules", "my-rules.yaml")
		io.WriteString(fw, rules)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", ts.http.URL+"/games", &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, data
}

func (ts *testServer) games(t *testing.T) int {
	t.Helper()
	recs, err := ts.m.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

func tokenOf(link string) string {
	u, _ := url.Parse(link)
	return u.Query().Get("token")
}

// A person plays a whole game against a bot through the handlers alone:
// the state says when it is the seat's turn and lists the legal answers,
// and the first one is always accepted.
func TestPersonPlaysAWholeGame(t *testing.T) {
	ts := newTestServer(t)
	res, data := ts.form(t, map[string]string{"seat0": "human", "name0": "Me", "seat1": "baseline", "preset": "timed", "seed": "3"}, "", true)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	var l gameLinks
	json.Unmarshal(data, &l)
	me := tokenOf(l.Seats[0])
	if me == "" || l.Seats[1] != "" {
		t.Fatalf("links %+v", l)
	}
	answers := 0
	for answers < 20000 {
		_, data := ts.do(t, "GET", "/games/"+l.ID+"/state", me, nil)
		var st gameState
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		if st.Over {
			break
		}
		if !st.YourTurn {
			t.Fatalf("not over and not my turn: %s", data)
		}
		body := map[string]json.RawMessage{"action": st.Options.Actions[0]}
		if res, data := ts.do(t, "POST", "/games/"+l.ID+"/answer", me, body); res.StatusCode != 200 {
			t.Fatalf("answer %s: %d %s", st.Options.Actions[0], res.StatusCode, data)
		}
		answers++
	}
	sess, _ := ts.m.Open(context.Background(), l.ID)
	if !sess.Status().Over || answers == 0 {
		t.Fatalf("after %d answers: %+v", answers, sess.Status())
	}
}

// The tokens decide who may act: a spectator, a wrong token and another
// seat's token are refused, and nothing changes.
func TestTokensGuardSeats(t *testing.T) {
	ts := newTestServer(t)
	_, data := ts.form(t, map[string]string{"seat0": "human", "seat1": "human", "seed": "1"}, "", true)
	var l gameLinks
	json.Unmarshal(data, &l)
	a, b := tokenOf(l.Seats[0]), tokenOf(l.Seats[1])
	before := mustStatus(t, ts, l.ID)
	cont := map[string]any{"action": map[string]string{"kind": "continue"}}
	for _, tc := range []struct {
		tok  string
		code int
	}{{"", http.StatusForbidden}, {"0123", http.StatusForbidden}, {b, http.StatusUnprocessableEntity}} {
		res, data := ts.do(t, "POST", "/games/"+l.ID+"/answer", tc.tok, cont)
		if res.StatusCode != tc.code {
			t.Errorf("token %q: %d %s, want %d", tc.tok, res.StatusCode, data, tc.code)
		}
	}
	// Garbage and an illegal move are refused with the legal options.
	res, data := ts.do(t, "POST", "/games/"+l.ID+"/answer", a, map[string]any{"action": map[string]any{"kind": "build", "square": 39}})
	var p problem
	json.Unmarshal(data, &p)
	if res.StatusCode != http.StatusUnprocessableEntity || p.Refusal == nil || p.Refusal.Options == nil || len(p.Refusal.Options.Actions) == 0 {
		t.Errorf("an illegal build: %d %s", res.StatusCode, data)
	}
	if res, _ := ts.do(t, "POST", "/games/"+l.ID+"/answer", a, "not an answer"); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("garbage: %d", res.StatusCode)
	}
	// An answer made for an earlier decision, and a malformed at.
	for _, at := range []string{"7", "-1", "x"} {
		if res, data := ts.do(t, "POST", "/games/"+l.ID+"/answer?at="+at, a, cont); res.StatusCode == 200 {
			t.Errorf("an answer at %s was taken: %s", at, data)
		}
	}
	if after := mustStatus(t, ts, l.ID); after != before {
		t.Fatalf("refused answers changed the game: %+v, then %+v", before, after)
	}
	// The answer for the decision pending, from a client that is gone
	// before the bots have played on: it is taken, and all they play.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	raw, _ := json.Marshal(cont)
	req := httptest.NewRequestWithContext(gone, "POST", fmt.Sprintf("/games/%s/answer?at=%d", l.ID, before.Entries), bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Host = "127.0.0.1" // as the browser would name the server
	req.Header.Set("X-Gopoly-CSRF", ts.csrf)
	req.Header.Set("X-Gopoly-Token", a)
	rec := httptest.NewRecorder()
	ts.Server.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("the right seat's answer was refused: %d %s", rec.Code, rec.Body)
	}
	if after := mustStatus(t, ts, l.ID); after.Entries <= before.Entries {
		t.Fatalf("the answer of a client that left was lost: %+v", after)
	}
	// The lobby's list is public: it names no token.
	_, list := ts.do(t, "GET", "/", "", nil)
	for _, secret := range []string{a, b, tokenOf(l.Research)} {
		if strings.Contains(string(list), secret) {
			t.Fatalf("the lobby's JSON holds a token: %s", list)
		}
	}
	if !strings.Contains(string(list), l.ID) {
		t.Fatalf("the lobby's JSON lacks the game: %s", list)
	}
}

func mustStatus(t *testing.T, ts *testServer, id string) session.Status {
	t.Helper()
	sess, err := ts.m.Open(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st := sess.Status()
	st.Updated = time.Time{}
	return st
}

// A bad form changes nothing and says what was wrong; a rules file's
// mistake is reported with its line; a form without the anti-forgery
// token, or from another site, is refused.
func TestBadFormsChangeNothing(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		fields map[string]string
		rules  string
		csrf   bool
		code   int
		want   string
	}{
		{map[string]string{"seat0": "baseline"}, "", true, 400, "at least two players"},
		{map[string]string{"seat0": "baseline", "seat1": "no-such-bot"}, "", true, 400, "no-such-bot"},
		{map[string]string{"seat0": "baseline", "seat1": "human", "seed": "x"}, "", true, 400, "seed"},
		{map[string]string{"seat0": "baseline", "seat1": "human", "preset": "chess"}, "", true, 400, "preset"},
		{map[string]string{"seat0": "baseline", "seat1": "human"}, "starting_cash: 1500\njail_fine: lots\n", true, 400, "rules.yaml:2: jail_fine"},
		{map[string]string{"seat0": "baseline", "seat1": "human"}, "", false, 403, "anti-forgery"},
		{map[string]string{"seat0": "baseline", "seat1": "human", "name0": "Ann", "name1": "ann"}, "", true, 400, `name \"ann\" is taken`},
		{map[string]string{"seat0": "baseline", "seat1": "human", "name1": "Ann"}, "", true, 400, `name \"Ann\" is taken`}, // seat 1's default name
	} {
		res, data := ts.form(t, tc.fields, tc.rules, tc.csrf)
		if res.StatusCode != tc.code || !strings.Contains(string(data), tc.want) {
			t.Errorf("%v %q: %d %s, want %d %q", tc.fields, tc.rules, res.StatusCode, data, tc.code, tc.want)
		}
		if m := packagePrefix.FindString(string(data)); m != "" { // people read these pages
			t.Errorf("%v %q: the page shows the package prefix %q: %s", tc.fields, tc.rules, m, data)
		}
	}
	req, _ := http.NewRequest("POST", ts.http.URL+"/games", strings.NewReader("csrf="+ts.csrf+"&seat0=baseline&seat1=baseline"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 403 {
		t.Errorf("a cross-site form: %v %v", res.StatusCode, err)
	}
	if n := ts.games(t); n != 0 {
		t.Fatalf("bad forms created %d games", n)
	}
}

// packagePrefix is an error's Go package prefix, which people should not
// read.
var packagePrefix = regexp.MustCompile(`\b(session|wire|table|agent|monopoly|notation|store): `)

// TestDNSRebinding sends what a page of evil.example sends once its
// name points at this server: the lobby (with the anti-forgery token)
// and a game's state are refused, and so is a form with the token whose
// Host and Origin are both evil.example; a name given in the allow-list
// is served.
func TestDNSRebinding(t *testing.T) {
	ts := newTestServer(t, "games.example")
	port := ts.http.URL[strings.LastIndexByte(ts.http.URL, ':')+1:]
	send := func(method, path, host, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
		req.Host = host
		if method == "POST" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", "http://"+host)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(data)
	}
	l, err := ts.Demo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	before := ts.games(t)
	evil := "evil.example:" + port
	for _, path := range []string{"/", "/games/" + l.ID + "/state", "/static/", "/lab"} {
		if status, body := send("GET", path, evil, ""); status != 403 || strings.Contains(body, ts.csrf) || !strings.Contains(body, "DNS rebinding") {
			t.Errorf("GET %s with Host %s: %d %.200q, want 403 saying why", path, evil, status, body)
		}
	}
	if status, body := send("POST", "/games", evil, "csrf="+ts.csrf+"&seat0=baseline&seat1=baseline"); status != 403 {
		t.Errorf("a form with Host and Origin %s: %d %.200q", evil, status, body)
	}
	if n := ts.games(t); n != before {
		t.Fatalf("a rebound page's form made %d games", n-before)
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "games.example"} {
		if status, body := send("GET", "/", host, ""); status != 200 || !strings.Contains(body, ts.csrf) {
			t.Errorf("GET / with Host %s: %d %.200q, want the lobby", host, status, body)
		}
	}
	if status, body := send("POST", "/games", "games.example", "csrf="+ts.csrf+"&seat0=baseline&seat1=baseline"); status >= 400 {
		t.Errorf("a form of an allowed host: %d %.200q", status, body)
	}
}

// sseEvents reads server-sent events from the stream until n have come.
func sseEvents(t *testing.T, url, lastID string, n int) []streamEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []streamEvent
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id string
	for sc.Scan() && len(out) < n {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "data: "):
			var e streamEvent
			if err := json.Unmarshal([]byte(line[6:]), &e); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(e.Event.Event.Seq) != id {
				t.Fatalf("event %d under id %s", e.Event.Event.Seq, id)
			}
			out = append(out, e)
		}
	}
	if len(out) < n {
		t.Fatalf("%s: %d events of %d before the stream ended or 20 s passed", url, len(out), n)
	}
	return out
}

// The stream sends every event in order to every spectator, live, and a
// reconnection with Last-Event-ID resumes after the last event seen.
func TestStreamResumes(t *testing.T) {
	ts := newTestServer(t)
	_, data := ts.form(t, map[string]string{"seat0": "baseline", "seat1": "baseline", "seed": "5"}, "", true)
	var l gameLinks
	json.Unmarshal(data, &l)
	ts.do(t, "POST", "/games/"+l.ID+"/pace", tokenOf(l.Research), map[string]any{"speed": 5})
	url := ts.http.URL + "/games/" + l.ID + "/events"
	first := sseEvents(t, url, "", 30)
	second := sseEvents(t, url, "", 30) // a second spectator
	for i := range first {
		if first[i].Event.Event.Seq != i || second[i].Text != first[i].Text {
			t.Fatalf("event %d: %+v and %+v", i, first[i], second[i])
		}
	}
	more := sseEvents(t, url, "29", 5)
	if len(more) != 5 || more[0].Event.Event.Seq != 30 {
		t.Fatalf("resumed at %+v", more)
	}
	res, _ := ts.do(t, "GET", "/games/"+l.ID+"/events?from=x", "", nil)
	if res.StatusCode != 400 {
		t.Fatalf("a bad from: %d", res.StatusCode)
	}
}

// Spectators see no thoughts unless the creator opened the research view;
// the research link always does.
func TestThoughtsOnlyInTheResearchView(t *testing.T) {
	ts := newTestServer(t)
	thoughts := func(research bool, tok func(gameLinks) string) int {
		fields := map[string]string{"seat0": "shark", "seat1": "professor", "seed": "2"}
		if research {
			fields["research"] = "1"
		}
		_, data := ts.form(t, fields, "", true)
		var l gameLinks
		json.Unmarshal(data, &l)
		ts.do(t, "POST", "/games/"+l.ID+"/pace", tokenOf(l.Research), map[string]any{"speed": 5})
		u := ts.http.URL + "/games/" + l.ID + "/events"
		if k := tok(l); k != "" {
			u += "?token=" + k
		}
		n := 0
		for _, e := range sseEvents(t, u, "", 60) {
			if e.Event.Event.Thought != "" {
				n++
			}
		}
		return n
	}
	if n := thoughts(false, func(gameLinks) string { return "" }); n != 0 {
		t.Errorf("a spectator saw %d thoughts", n)
	}
	if n := thoughts(false, func(l gameLinks) string { return tokenOf(l.Research) }); n == 0 {
		t.Error("the research link saw no thought")
	}
	if n := thoughts(true, func(gameLinks) string { return "" }); n == 0 {
		t.Error("a spectator of an open research view saw no thought")
	}
}

// Pacing takes a token; the research link pauses, steps and speeds up.
func TestPace(t *testing.T) {
	ts := newTestServer(t)
	_, data := ts.form(t, map[string]string{"seat0": "baseline", "seat1": "random", "seed": "9"}, "", true)
	var l gameLinks
	json.Unmarshal(data, &l)
	path := "/games/" + l.ID + "/pace"
	if res, _ := ts.do(t, "POST", path, "", map[string]any{"pause": true}); res.StatusCode != 403 {
		t.Fatalf("a spectator paced the game: %d", res.StatusCode)
	}
	for _, bad := range []map[string]any{{"speed": 9}, {"paused": true}, {}} {
		if res, _ := ts.do(t, "POST", path, tokenOf(l.Research), bad); res.StatusCode != 400 {
			t.Fatalf("pace %v: %d", bad, res.StatusCode)
		}
	}
	_, data = ts.do(t, "POST", path, tokenOf(l.Research), map[string]any{"pause": true})
	var p table.Pace
	json.Unmarshal(data, &p)
	if !p.Paused {
		t.Fatalf("pause: %s", data)
	}
	time.Sleep(50 * time.Millisecond)
	before := mustStatus(t, ts, l.ID).Entries
	time.Sleep(600 * time.Millisecond)
	if after := mustStatus(t, ts, l.ID).Entries; after != before {
		t.Fatalf("a paused game went on from %d to %d answers", before, after)
	}
	ts.do(t, "POST", path, tokenOf(l.Research), map[string]any{"step": true})
	deadline := time.Now().Add(5 * time.Second)
	for mustStatus(t, ts, l.ID).Entries == before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if mustStatus(t, ts, l.ID).Entries == before {
		t.Fatal("a step played nothing")
	}
}

// Forking from an earlier point with a seat taken by a person opens a new
// game there, the person to play.
func TestForkTakesASeat(t *testing.T) {
	ts := newTestServer(t)
	_, data := ts.form(t, map[string]string{"seat0": "baseline", "seat1": "baseline", "seed": "4"}, "", true)
	var l gameLinks
	json.Unmarshal(data, &l)
	ts.do(t, "POST", "/games/"+l.ID+"/pace", tokenOf(l.Research), map[string]any{"speed": 5})
	sseEvents(t, ts.http.URL+"/games/"+l.ID+"/events", "", 20)
	if res, _ := ts.do(t, "POST", "/games/"+l.ID+"/fork", "", map[string]any{"at": 3, "take": 1}); res.StatusCode != 403 {
		t.Fatalf("a spectator forked a game whose research view is closed: %d", res.StatusCode)
	}
	if n := ts.games(t); n != 1 {
		t.Fatalf("a refused fork left %d games", n)
	}
	res, data := ts.do(t, "POST", "/games/"+l.ID+"/fork", tokenOf(l.Research), map[string]any{"at": 3, "take": 1})
	if res.StatusCode != 200 {
		t.Fatalf("fork: %d %s", res.StatusCode, data)
	}
	var f gameLinks
	json.Unmarshal(data, &f)
	if f.Seats[1] == "" || f.Seats[0] != "" {
		t.Fatalf("fork links %+v", f)
	}
	sess, err := ts.m.Open(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Setup().Seats[1].Kind != session.SeatHuman || sess.Status().Entries < 3 {
		t.Fatalf("forked game: %+v, %+v", sess.Setup().Seats, sess.Status())
	}
	if res, _ := ts.do(t, "POST", "/games/"+l.ID+"/fork", tokenOf(l.Research), map[string]any{"at": 1 << 20}); res.StatusCode != 422 {
		t.Fatalf("a fork past the end: %d", res.StatusCode)
	}
	// A seat the session cannot seat is refused in people's words.
	res, data = ts.do(t, "POST", "/games/"+l.ID+"/fork", tokenOf(l.Research), map[string]any{"at": 3, "seats": "baseline,no-such-bot"})
	if res.StatusCode != 400 || !strings.Contains(string(data), "no-such-bot") || strings.Contains(string(data), "session: ") {
		t.Errorf("a fork with an unknown bot: %d %s", res.StatusCode, data)
	}
	games := ts.games(t)
	for _, bad := range []map[string]any{{"tkae": 1, "at": 3}, {"take": 1}} {
		if res, _ := ts.do(t, "POST", "/games/"+l.ID+"/fork", tokenOf(l.Research), bad); res.StatusCode != 400 {
			t.Errorf("fork %v: %d", bad, res.StatusCode)
		}
	}
	if ts.games(t) != games {
		t.Error("a malformed fork made a game")
	}
}

// The pages render, the board is SVG, and unknown games are 404.
func TestPages(t *testing.T) {
	ts := newTestServer(t)
	l, err := ts.Demo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
		code       int
	}{
		{"/", "New game", 200},
		{l.Research, `<svg`, 200},
		{l.Watch, `value="talk"`, 200},
		{"/games/" + l.ID + "/board.svg?at=0", "<svg", 200},
		{"/games/" + l.ID + "/board.svg?at=-4", "at:", 400},
		{"/games/nope", "no game", 404},
		{"/static/game.js", "EventSource", 200},
		{"/games/" + l.ID + "?token=bad", "bad_token", 403},
	} {
		res, err := http.Get(ts.http.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.code || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d, want %d with %q", tc.path, res.StatusCode, tc.code, tc.want)
		}
	}
}

// An experiment started from the lab's form runs in the background; its
// status stream follows it to the end, and its page shows the results.
func TestLab(t *testing.T) {
	ts := newTestServer(t)
	post := func(spec string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", ts.http.URL+"/lab", strings.NewReader(url.Values{"csrf": {ts.csrf}, "spec": {spec}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, data
	}
	if res, data := post("name: x\nvariants: []\n"); res.StatusCode != 400 || !strings.Contains(string(data), "spec.yaml") {
		t.Fatalf("a bad spec: %d %s", res.StatusCode, data)
	}
	res, data := post("name: web-lab\nseeds: {start: 1, count: 30, step: 1}\nvariants:\n  - {name: a, seats: [baseline, random]}\n")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	var st lab.Status
	json.Unmarshal(data, &st)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/lab/"+st.ID+"/events", nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	sc := bufio.NewScanner(stream.Body)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "data: ") {
			last = line[6:]
		}
	}
	stream.Body.Close()
	if !strings.Contains(last, `"state":"complete"`) || !strings.Contains(last, `"done":30`) {
		t.Fatalf("the stream ended with %s", last)
	}
	_, data = ts.do(t, "GET", "/lab/"+st.ID, "", nil)
	if !strings.Contains(string(data), `"wins"`) {
		t.Fatalf("results: %s", data)
	}
	for _, p := range []string{"/lab/" + st.ID + "/plots/winrates.svg", "/lab", "/lab/" + st.ID} {
		if res, err := http.Get(ts.http.URL + p); err != nil || res.StatusCode != 200 {
			t.Errorf("%s: %v %v", p, res.StatusCode, err)
		}
	}
	// A path out of the run and an unknown plot are bad requests, not
	// the server's failure.
	for _, name := range []string{"..%2f..%2fetc%2fpasswd", "nosuch.svg", "lab.json"} {
		if res, data := ts.do(t, "GET", "/lab/"+st.ID+"/plots/"+name, "", nil); res.StatusCode != 400 || !strings.Contains(string(data), "no such plot") {
			t.Errorf("plot %s: %d %s, want 400", name, res.StatusCode, data)
		}
	}
	if res, _ := ts.do(t, "GET", "/lab/nosuch/plots/winrates.svg", "", nil); res.StatusCode != 404 {
		t.Errorf("a plot of no run: %d, want 404", res.StatusCode)
	}
	// Its results count the seats from 1, as people do.
	if res, err := http.Get(ts.http.URL + "/lab/" + st.ID); err == nil {
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(page), "<tr><td>1</td><td>baseline</td>") || strings.Contains(string(page), "<tr><td>0</td>") {
			t.Error("the run's page does not count its seats from 1")
		}
	}

	// A tournament from its form: one rotating variant of the entrants.
	tourn := func(bots, games string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", ts.http.URL+"/lab/tournament", strings.NewReader(url.Values{"csrf": {ts.csrf}, "bots": {bots}, "games": {games}, "rules": {"max_rounds: 200"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, data
	}
	for _, bad := range [][2]string{{"baseline", "10"}, {"baseline,nobody", "10"}, {"baseline,random", "x"}} {
		if res, data := tourn(bad[0], bad[1]); res.StatusCode != 400 {
			t.Errorf("tournament %v: %d %s", bad, res.StatusCode, data)
		}
	}
	res, data = tourn("baseline, random", "20")
	if res.StatusCode != 200 || !strings.Contains(string(data), `"total":20`) {
		t.Fatalf("tournament: %d %s", res.StatusCode, data)
	}
}

// createDeal starts a Monopoly Deal game against the bundled agent, as
// the lobby's form does, and returns its id and token.
func (ts *testServer) createDeal(t *testing.T) (id, tok string) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.http.URL+"/deal", strings.NewReader(url.Values{"csrf": {ts.csrf}, "policy": {"bundled"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var created struct{ ID, Link string }
	if err := json.NewDecoder(res.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	return created.ID, tokenOf(created.Link)
}

// Past the bound on games in memory, starting a Deal game drops the one
// left longest untouched; the others play on, and its record stays.
func TestDealGamesBounded(t *testing.T) {
	ts := newTestServer(t)
	ts.maxDeals = 2
	create := func() (path, id string) {
		id, tok := ts.createDeal(t)
		return "/deal/" + id + "/state?token=" + tok, id
	}
	status := func(path string) int {
		res, _ := ts.do(t, "GET", path, "", nil)
		return res.StatusCode
	}
	first, _ := create()
	second, secondID := create()
	if status(first) != 200 || status(second) != 200 {
		t.Fatal("the first two games")
	}
	status(first) // the first is now the more recent
	third, _ := create()
	if status(first) != 200 || status(third) != 200 {
		t.Error("a game in use was dropped")
	}
	if got := status(second); got != 404 {
		t.Errorf("the game left longest untouched: %d, want 404", got)
	}
	if _, err := os.Stat(filepath.Join(ts.o.DealDir, "games", secondID+".json")); err != nil {
		t.Errorf("its record: %v", err)
	}
}

// A Monopoly Deal game against the bundled agent plays to its end through
// the handlers; its record is kept and replays to the same result; bad
// moves and tokens change nothing.
func TestDealGame(t *testing.T) {
	ts := newTestServer(t)
	id, tok := ts.createDeal(t)
	path := "/deal/" + id
	if res, _ := ts.do(t, "GET", path+"/state", "", nil); res.StatusCode != 403 {
		t.Fatalf("state without the token: %d", res.StatusCode)
	}
	get := func() dealView {
		_, data := ts.do(t, "GET", path+"/state?token="+tok, "", nil)
		var v dealView
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		return v
	}
	v := get()
	if res, _ := ts.do(t, "POST", path+"/move?token="+tok, "", map[string]int{"move": len(v.Moves)}); res.StatusCode != 422 {
		t.Fatalf("a move out of range: %d", res.StatusCode)
	}
	if after := get(); len(after.Log) != len(v.Log) {
		t.Fatal("a refused move changed the game")
	}
	agentMoves := 0
	for i := 0; !v.Over; i++ {
		if i > 2000 {
			t.Fatal("the game did not end")
		}
		_, data := ts.do(t, "POST", path+"/move?token="+tok, "", map[string]int{"move": 0})
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
	}
	for _, l := range v.Log {
		if l.Who == "agent" && l.Prob != "" {
			agentMoves++
		}
	}
	if agentMoves == 0 || v.Result == "" {
		t.Fatalf("a game with %d agent moves shown with their probability, result %q", agentMoves, v.Result)
	}
	data, err := os.ReadFile(filepath.Join(ts.o.DealDir, "games", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec deal.Record
	json.Unmarshal(data, &rec)
	g, err := deal.Replay(rec)
	if err != nil || !g.Over() || len(rec.Actions) < len(v.Log) {
		t.Fatalf("the record replays to over %v (%d actions, %d moves logged): %v", g.Over(), len(rec.Actions), len(v.Log), err)
	}
}

// The page gets its buttons and waiting line in plain words, one label
// per listed action, and a refusal worded for the person: the seat that
// decides by name, no code words, no package prefix, no seat from 0.
func TestPeoplesWords(t *testing.T) {
	ts := newTestServer(t)
	_, data := ts.form(t, map[string]string{"seat0": "human", "seat1": "human", "seed": "1"}, "", true)
	var l gameLinks
	json.Unmarshal(data, &l)
	a, b := tokenOf(l.Seats[0]), tokenOf(l.Seats[1])
	var st struct {
		Options struct {
			Actions []json.RawMessage `json:"actions"`
		} `json:"options"`
		Labels  []string `json:"labels"`
		Waiting string   `json:"waiting_text"`
		Text    string   `json:"decision_text"`
	}
	_, data = ts.do(t, "GET", "/games/"+l.ID+"/state", a, nil)
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Labels) == 0 || len(st.Labels) != len(st.Options.Actions) || st.Labels[0] != "Roll the dice" {
		t.Errorf("labels %q for %d actions", st.Labels, len(st.Options.Actions))
	}
	sess, err := ts.m.Open(context.Background(), l.ID)
	if err != nil {
		t.Fatal(err)
	}
	setup := sess.Setup()
	first := setup.Names()[0]
	if want := "Waiting for " + first + " to decide"; !strings.HasPrefix(st.Waiting, want) {
		t.Errorf("waiting_text %q, want it to begin %q", st.Waiting, want)
	}
	engine := regexp.MustCompile(`\w_\w|\bplayer \d|\b[Ss]eat 0\b|\b(?:wire|notation|session):`)
	for _, tc := range []struct {
		tok  string
		body any
		says string
	}{
		{b, map[string]any{"action": map[string]string{"kind": "continue"}}, first},
		{a, map[string]any{"action": map[string]string{"kind": "pay_jail_fine"}}, first},
		{a, map[string]any{"action": map[string]any{"kind": "build", "square": 39}}, "Boardwalk"},
		{a, map[string]any{"action": map[string]string{"kind": "asdfgh"}}, "Could not read that"},
	} {
		res, data := ts.do(t, "POST", "/games/"+l.ID+"/answer", tc.tok, tc.body)
		var p problem
		json.Unmarshal(data, &p)
		if res.StatusCode != http.StatusUnprocessableEntity || p.Refusal == nil || p.Code == "" {
			t.Errorf("%v: %d %s", tc.body, res.StatusCode, data)
			continue
		}
		if m := engine.FindString(p.Message); m != "" || !strings.Contains(p.Message, tc.says) || p.Refusal.Message != p.Message {
			t.Errorf("%v: refused with %q (engine word %q), want it to say %q", tc.body, p.Message, m, tc.says)
		}
	}
}

// Every rules preset of the lobby starts a game, and the Monopyly preset
// plays the rules of examples/rules/monopyly.yaml, the file the strength
// figures against the Monopyly AIs are measured under.
func TestPresets(t *testing.T) {
	// newGame reads the lobby's form for two baselines, a preset and rules
	// of one's own.
	newGame := func(preset, rules string) (session.Setup, error) {
		form := url.Values{"seat0": {"baseline"}, "seat1": {"baseline"}, "preset": {preset}, "rules_text": {rules}}
		req := httptest.NewRequest("POST", "/games", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return parseNewGame(req)
	}
	for _, p := range presets {
		setup, err := newGame(p.Name, "")
		if err != nil || setup.Checked == nil {
			t.Fatalf("preset %q: %v", p.Name, err)
		}
		if p.Name != "monopyly" {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", "examples", "rules", "monopyly.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := monopoly.ParseRules("monopyly.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(setup.Checked)
		if w, _ := json.Marshal(want); !bytes.Equal(got, w) {
			t.Errorf("the monopyly preset's rules\n%s\nare not examples/rules/monopyly.yaml's\n%s", got, w)
		}
	}
	// Rules of one's own go on top of a preset, a key given in both
	// taking the file's value, and an error names the file's own line.
	if setup, err := newGame("monopyly", "auctions: false\nmax_rounds: 40\n"); err != nil || setup.Checked.MaxRounds != 40 || setup.Checked.Auctions || setup.Checked.NetWorth != monopoly.NetWorthResale {
		t.Errorf("a rules file on the monopyly preset: %v", err)
	}
	if _, err := newGame("monopyly", "# mine\nmax_rounds: lots\n"); err == nil || !strings.Contains(err.Error(), "rules.yaml:2") {
		t.Errorf("a bad rules file on a preset: %v", err)
	}
}
