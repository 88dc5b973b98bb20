package web

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// The browser as a person meets it (issue 25): a trade that gives a
// property, a fork with a person's seat, the replay scrubber, the names,
// the odds chart, the layouts at desktop and phone size, and the error
// pages. Each test fails on any script error of its pages (browser).

// newGame starts a game from the lobby's form, as the page's scripts
// would, and returns its links.
func newGame(t *testing.T, ts *testServer, fields map[string]string) gameLinks {
	t.Helper()
	res, data := ts.form(t, fields, "", true)
	var l gameLinks
	if err := json.Unmarshal(data, &l); err != nil || res.StatusCode != 200 {
		t.Fatalf("new game: %d %s", res.StatusCode, data)
	}
	return l
}

// playUntil clicks a person's first option until done (a JavaScript
// expression) holds, and fails if the game ends first.
func playUntil(t *testing.T, ctx context.Context, what, done string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		state := eval[string](t, ctx, `(() => {
			if (`+done+`) return "done";
			const h = document.querySelector("#decision h2");
			if (h && /wins|Game over/.test(h.textContent)) return "over";
			const b = document.querySelector('#decision button[data-key="1"]');
			if (b && !b.disabled) b.click();
			return "";
		})()`)
		switch {
		case state == "done":
			return
		case state == "over":
			t.Fatalf("the game ended before %s", what)
		case time.Now().After(deadline):
			t.Fatalf("2 minutes without %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dollars writes an amount as the page does: "$1,500".
func dollars(n int) string {
	s := fmt.Sprint(max(n, -n))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n < 0 {
		return "-$" + s
	}
	return "$" + s
}

// A person asks the other seat for one of its properties with the trade
// builder; the other seat answers it, accepting or refusing for a reason
// of the game, and the answer is not refused as malformed (the builder
// once sent the ticked square as a jail card too).
func TestBrowserTradeProperty(t *testing.T) {
	ts := newTestServer(t)
	l := newGame(t, ts, map[string]string{"seat0": "human", "name0": "Ann", "seat1": "baseline", "seed": "7"})
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.Navigate(ts.http.URL+l.Seats[0]), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	playUntil(t, ctx, "a trade builder offering one of Bob's properties", `document.querySelector(".trade .side-get .sq input")`)
	tick := `(() => {
		const box = document.querySelector(".trade .side-get .sq input");
		box.closest("details").open = true;
		box.checked = true;
		return box.parentElement.textContent.trim();
	})()`
	square := eval[string](t, ctx, tick)
	screenshot(t, ctx, "trade")
	// Ticked and sent in one go: a redraw of the panel in between would
	// send an empty trade.
	eval[string](t, ctx, `(() => { const s = `+tick+`; document.querySelector(".trade button[type=submit]").click(); return s; })()`)
	waitFor(t, ctx, "Bob's answer to the trade, or a refusal",
		`document.querySelector("#feed li.trade_accepted, #feed li.trade_rejected") !== null || (document.getElementById("refusal")?.textContent || "") !== ""`)
	if r := eval[string](t, ctx, `document.getElementById("refusal")?.textContent || ""`); r != "" {
		t.Fatalf("the trade asking for %s was refused: %s", square, r)
	}
	proposed := eval[string](t, ctx, `document.querySelector("#feed li.trade_proposed")?.textContent || ""`)
	if !strings.Contains(proposed, square) {
		t.Errorf("the proposal %q does not name %s", proposed, square)
	}
	// The feed's filters: events off leaves the trades.
	shown := `[...document.querySelectorAll("#feed li")].filter(l => l.offsetParent !== null).map(l => l.className.split(" ")[0])`
	eval[bool](t, ctx, `(() => { const b = document.querySelector('#filters input[value="event"]'); b.checked = false; b.dispatchEvent(new Event("change")); return true; })()`)
	if got := eval[[]string](t, ctx, shown); len(got) == 0 || slices.ContainsFunc(got, func(c string) bool { return c != "trade" && c != "talk" }) {
		t.Errorf("with events filtered out the feed shows %q", got)
	}
	within(t, ctx, 10*time.Second, `document.querySelector('#decision button[data-key="1"]')?.disabled === false`)
	if latest := eval[string](t, ctx, `document.getElementById("latest").textContent`); !strings.Contains(latest, "trade") {
		t.Errorf("the lines beside the decision, %q, do not show the trade's answer", latest)
	}
	screenshot(t, ctx, "trade-answered")
}

// The research view scrubs back: the players' cash and the decision are
// those of that moment, not of now; and a fork from there with a person
// in a seat shows that seat's link, which the lobby then offers too.
func TestBrowserScrubAndFork(t *testing.T) {
	ts := newTestServer(t)
	l := newGame(t, ts, map[string]string{"seat0": "human", "name0": "Ann", "seat1": "shark", "seat2": "professor", "seat3": "hustler", "seed": "3"})
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.http.URL+l.Seats[0]), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	playUntil(t, ctx, "40 events", `document.querySelectorAll("#feed li").length >= 40`)

	// The point to scrub to: an event after which the cash differs from now.
	sess, err := ts.m.Open(context.Background(), l.ID)
	if err != nil {
		t.Fatal(err)
	}
	research := tokenOf(l.Research)
	history, _, err := sess.History(research, 0, 40)
	if err != nil {
		t.Fatal(err)
	}
	now, err := sess.SnapshotAt(research, sess.Status().Entries)
	if err != nil {
		t.Fatal(err)
	}
	setup := sess.Setup()
	seq, want := -1, []string(nil)
	for _, e := range history[10:] {
		then, err := sess.SnapshotAt(research, e.Entry+1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(then.Players, now.Players, func(a, b wire.PlayerState) bool { return a.Cash == b.Cash }) {
			seq = e.Event.Seq
			for _, p := range then.Players {
				want = append(want, dollars(p.Cash))
			}
			want = append(want, render.DecisionIn(then, setup.Names()))
			break
		}
	}
	if seq < 0 {
		t.Fatal("the cash never changed in 40 events: no past to scrub to")
	}

	rv := tab(t, ctx)
	err = chromedp.Do(rv,
		chromedp.EmulateViewport(1440, 900),
		chromedp.Navigate(ts.http.URL+l.Research),
		chromedp.WaitVisible("#board svg"),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, rv, "the research view's events", `document.querySelectorAll("#feed li").length >= 40`)
	within(t, rv, 10*time.Second, `/playouts/.test(document.getElementById("odds-note").textContent)`)
	screenshot(t, rv, "research")
	eval[bool](t, rv, fmt.Sprintf(`(() => { const s = document.getElementById("scrub"); s.value = %d; s.dispatchEvent(new Event("input")); return true; })()`, seq))
	if !within(t, rv, 10*time.Second, `document.querySelector("#decision h2")?.textContent === "Replay"`) {
		t.Error("scrubbed back, the decision panel does not show the replay's decision")
	}
	got := eval[[]string](t, rv, `[...document.querySelectorAll("#players .player .cash")].map(c => c.textContent).concat([document.querySelector("#decision .question")?.textContent ?? ""])`)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("scrubbed to event %d the page shows %q, want %q (cash then, and the decision then)", seq, got, want)
	}
	screenshot(t, rv, "scrubbed")

	// Fork from there with a person in the first seat.
	err = chromedp.Do(rv,
		chromedp.SetValue("#fork-seats", "human,shark,professor,hustler"),
		chromedp.Click("#fork"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !within(t, rv, 10*time.Second, `document.querySelector("#forked a.fork-seat") !== null`) {
		t.Fatalf("the fork shows no link to its person's seat: %q", eval[string](t, rv, `document.getElementById("forked").textContent`))
	}
	seatLink := eval[string](t, rv, `document.querySelector("#forked a.fork-seat").getAttribute("href")`)
	if !strings.Contains(seatLink, "token=") || strings.Contains(seatLink, l.ID) {
		t.Fatalf("the fork's seat link %q", seatLink)
	}
	if err := chromedp.Do(rv, chromedp.Navigate(ts.http.URL+"/"), chromedp.WaitVisible("tr[data-id]")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, rv, "the lobby's link to the fork's seat",
		fmt.Sprintf(`[...document.querySelectorAll(".actions a")].some(a => a.textContent === "play seat 1" && a.getAttribute("href") === %q)`, seatLink))
	if err := chromedp.Do(rv, chromedp.Navigate(ts.http.URL+seatLink), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, rv, "the fork's person to be asked", `document.querySelector('#decision button[data-key="1"]') !== null`)
}

// Names show once with who plays the seat, the player panel says each
// seat's personality, seats count from 1 in the lobby as in its errors,
// the odds chart has axes, a legend in the seats' colours and its sample
// size from its first estimate; the board's names are upright and 11
// pixels or more at 1440x900; the decision sits beside the board on a
// desktop and at the bottom of a phone's screen; the lobby and the lab
// fit a phone; and a lab spec refused keeps what was typed.
func TestBrowserLooks(t *testing.T) {
	ts := newTestServer(t)
	ctx := browser(t)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1440, 900),
		chromedp.Navigate(ts.http.URL+"/"),
		chromedp.WaitVisible("#seat0"),
		chromedp.SetValue("#seat0", "human"),
		chromedp.SetValue("#name0", "Tester"),
		chromedp.SetValue("#seat1", "shark"),
		chromedp.SetValue("#seat2", "professor"),
		chromedp.SetValue("#seat3", ""),
		chromedp.SetValue("#seed", "5"),
		chromedp.Click("form.new-game button[type=submit]"),
		chromedp.WaitVisible("a.seat-link"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#created tbody tr")].map(r => r.cells[0].textContent + " " + r.cells[1].textContent).join("; ")`); got != "1 Tester — a person; 2 Bob — shark; 3 Cat — professor" {
		t.Errorf("the new game's seats read %q", got)
	}
	seatLink := eval[string](t, ctx, `document.querySelector("a.seat-link").href`)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.http.URL+"/"), chromedp.WaitVisible("tr[data-id]")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.querySelector("tr[data-id]").cells[1].textContent`); got != "Tester — a person, Bob — shark, Cat — professor" {
		t.Errorf("the lobby lists the players as %q", got)
	}

	// The game page at desktop size.
	if err := chromedp.Do(ctx, chromedp.Navigate(seatLink), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#players .player h3")].map(h => h.firstChild.textContent + " " + h.childNodes[2].textContent + (h.querySelector(".played-by")?.textContent ?? "")).join("; ")`); got != "1 Tester — you; 2 Bob — shark; 3 Cat — professor" {
		t.Errorf("the player panel reads %q", got)
	}
	if !within(t, ctx, 20*time.Second, `document.querySelectorAll("#odds circle").length === 3`) {
		t.Error("the first chance to win draws no point for each player")
	}
	chart := eval[map[string]any](t, ctx, `(() => {
		const token = (s) => getComputedStyle(document.querySelector("#token-" + s + " circle:not(.halo)")).fill;
		const note = document.getElementById("odds-note");
		return {
			axes: [...document.querySelectorAll("#odds text")].map(t => t.textContent).join(" "),
			legend: [...document.querySelectorAll("#odds-legend li")].map(l => l.textContent.replace(/ \d+%$/, "")).join(", "),
			colours: [...document.querySelectorAll("#odds-legend .swatch")].map((s, i) => getComputedStyle(s).backgroundColor === token(i)).every(Boolean),
			note: note ? note.textContent : "",
		};
	})()`)
	if !strings.Contains(chart["axes"].(string), "0%") || !strings.Contains(chart["axes"].(string), "100%") || !strings.Contains(chart["axes"].(string), "turn") {
		t.Errorf("the chart's axes read %q", chart["axes"])
	}
	if chart["legend"] != "Tester, Bob, Cat" || chart["colours"] != true { // every() of no swatch is true: the legend's names say there are three
		t.Errorf("the chart's legend %q, in the tokens' colours: %v", chart["legend"], chart["colours"])
	}
	if note := chart["note"].(string); !strings.Contains(note, "400 playouts") {
		t.Errorf("the chart's note %q gives no sample size", note)
	}
	board := eval[map[string]float64](t, ctx, `(() => {
		const svg = document.querySelector("#board svg");
		let small = 1e9, turned = 0;
		for (const t of svg.querySelectorAll(".label > text")) {
			const m = t.getScreenCTM();
			small = Math.min(small, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
			if (Math.abs(m.b) > 1e-6 || m.a <= 0) turned++;
		}
		const b = svg.getBoundingClientRect(), d = document.getElementById("decision").getBoundingClientRect();
		return {small, turned, labels: svg.querySelectorAll(".label > text").length, beside: d.left - b.right, top: d.top, bottom: d.bottom};
	})()`)
	if board["labels"] < 20 || board["small"] < 11 || board["turned"] > 0 {
		t.Errorf("the board's %v names: the smallest %.1f px (want 11 or more), %v not upright", board["labels"], board["small"], board["turned"])
	}
	if board["beside"] < 0 || board["top"] < 0 || board["bottom"] > 900 {
		t.Errorf("at 1440x900 the decision is not beside the board in view: %v", board)
	}
	screenshot(t, ctx, "desktop")

	// A phone.
	err = chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(seatLink), chromedp.WaitVisible("#board svg"))
	if err != nil {
		t.Fatal(err)
	}
	within(t, ctx, 10*time.Second, `document.querySelector('#decision button[data-key="1"]') !== null`)
	if got := eval[string](t, ctx, `(() => { const d = document.getElementById("decision"); return getComputedStyle(d).position + " " + Math.round(innerHeight - d.getBoundingClientRect().bottom); })()`); got != "fixed 0" {
		t.Errorf("on a phone the decision is %q, want fixed at the bottom (fixed 0)", got)
	}
	screenshotView(t, ctx, "phone-seat")
	eval[bool](t, ctx, `(document.getElementById("zoom").click(), true)`)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the zoomed board makes the page %d pixels wide on a 390-pixel phone", w)
	}
	screenshotView(t, ctx, "phone-zoomed")
	for _, page := range []string{"/", "/lab"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.http.URL+page), chromedp.WaitVisible("main")); err != nil {
			t.Fatal(err)
		}
		if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s is %d pixels wide on a 390-pixel phone", page, w)
		}
	}
	screenshot(t, ctx, "phone-lab")

	// Seats count from 1 in the form and in its errors.
	err = chromedp.Do(ctx,
		chromedp.EmulateViewport(1440, 900),
		chromedp.Navigate(ts.http.URL+"/"),
		chromedp.WaitVisible("#seat2"),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("seat2"); s.append(new Option("nosuchbot", "nosuchbot")); s.value = "nosuchbot"; })()`),
	)
	if err != nil {
		t.Fatal(err)
	}
	label := eval[string](t, ctx, `document.querySelector("label[for=seat2]").textContent`)
	if err := chromedp.Do(ctx, chromedp.Click("form.new-game button[type=submit]"), chromedp.WaitVisible(".error")); err != nil {
		t.Fatal(err)
	}
	if msg := eval[string](t, ctx, `document.querySelector(".error").textContent`); !regexp.MustCompile(`\b` + strings.ToLower(label) + `\b`).MatchString(msg) {
		t.Errorf("the form's %q chose an unknown bot; the error says %q", label, msg)
	}

	// A refused spec comes back with the form as typed.
	const typed = "name: typed-by-me\nseeds: not a range\n"
	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.http.URL+"/lab"),
		chromedp.WaitVisible("#spec"),
		chromedp.SetValue("#spec", typed),
		chromedp.Click(`form[action="/lab"] button[type=submit]`),
		chromedp.WaitVisible(".error"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.getElementById("spec")?.value ?? "no spec field"`); got != typed { // the textarea's value: a newline that began it would be dropped
		t.Errorf("after the refusal the spec reads %q, want %q", got, typed)
	}
}
