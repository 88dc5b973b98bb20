package web

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/gopoly/gopoly/internal/citest"
)

// The browser tests drive Debian's chromium, headless, through chromedp.
// Without chromium they skip and say why, except on CI, where .ci/run
// installs it and a skip would leave the pages untested.

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	citest.Missing(t, "no chromium on CI: .ci/run must install Debian's chromium",
		"no chromium on this machine: the browser tests need it (apt-get install chromium)")
	return ""
}

// browser starts a headless chromium for the test and returns a tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // tests run as root on CI
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(func() {
		cancelTime()
		cancel()
		cancelAlloc()
	})
	failOnErrors(t, ctx)
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		t.Fatal(err)
	}
	return ctx
}

// tab opens another tab of the test's browser, its errors failing the
// test too.
func tab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	failOnErrors(t, tab)
	return tab
}

// failOnErrors fails the test, once it ends, for every console error and
// every uncaught exception of the tab's pages: a script that throws
// leaves a page that looks fine and does nothing.
func failOnErrors(t *testing.T, ctx context.Context) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "uncaught: " + ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
				msg += " " + ex.Description
			}
			if ev.ExceptionDetails.URL != "" {
				msg += fmt.Sprintf(" (%s:%d)", ev.ExceptionDetails.URL, ev.ExceptionDetails.LineNumber+1)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
				return
			}
			var parts []string
			for _, a := range ev.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
		default:
			return
		}
		mu.Lock()
		seen = append(seen, msg)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range seen {
			t.Errorf("page error: %s", m)
		}
	})
}

// eval runs a JavaScript expression in the tab and returns its value.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls expr until it is true.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if !within(t, ctx, time.Minute, expr) {
		t.Fatalf("waited a minute for %s", what)
	}
}

// within polls expr until it is true, for at most d, and reports
// whether it came true.
func within(t *testing.T, ctx context.Context, d time.Duration, expr string) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for !eval[bool](t, ctx, expr) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
	return true
}

// screenshot saves the tab's whole page as a test artifact (in
// $GOPOLY_ARTIFACTS, else the test's temporary directory) and fails if
// it is blank: a page that draws a board has many colours.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	saveShot(t, name, data)
}

// screenshotView is screenshot of what the screen shows, for a phone,
// whose decision panel stays at the bottom of the screen, not the page.
func screenshotView(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	saveShot(t, name, data)
}

// saveShot keeps a screenshot's PNG and fails if it is blank.
func saveShot(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("GOPOLY_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data)) // quality 100 is PNG
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	colours := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>12<<8|g>>12<<4|bl>>12] = true
		}
	}
	if len(colours) < 20 {
		t.Fatalf("%s: %d colours: the page is blank", path, len(colours))
	}
}

// A person opens the lobby, starts a game with a seat of their own,
// follows its link and plays it to the end by clicking; a spectator in a
// second tab sees the same events; a dropped stream reconnects without
// losing one; and the scrubber forks the game.
func TestBrowserGame(t *testing.T) {
	ts := newTestServer(t)
	ctx := browser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.http.URL+"/"),
		chromedp.WaitVisible("#seat0"),
		chromedp.SetValue("#seat0", "human"),
		chromedp.SetValue("#name0", "Tester"),
		chromedp.SetValue("#seat1", "baseline"),
		chromedp.SetValue("#seat2", ""),
		chromedp.SetValue("#seat3", ""),
		chromedp.SetValue("#preset", "quick"),
		chromedp.SetValue("#seed", "7"),
		chromedp.Click("form.new-game button[type=submit]"),
		chromedp.WaitVisible("a.seat-link"),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "created")
	seatLink := eval[string](t, ctx, `document.querySelector("a.seat-link").href`)
	watch := eval[string](t, ctx, `document.getElementById("watch-link").href`)
	research := eval[string](t, ctx, `document.getElementById("research-link").href`)
	if err := chromedp.Do(ctx, chromedp.Click("a.seat-link"), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, "location.href"); got != seatLink {
		t.Fatalf("at %s, want the seat's page", got)
	}

	// A spectator's tab.
	spec := tab(t, ctx)
	if err := chromedp.Do(spec, chromedp.Navigate(watch), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}

	// Play by clicking the first option until the game is over; drop the
	// streams once on the way.
	clicks, dropped := 0, false
	deadline := time.Now().Add(3 * time.Minute)
	for {
		state := eval[string](t, ctx, `(() => {
			const h = document.querySelector("#decision h2");
			if (h && /wins|Game over/.test(h.textContent)) return "over";
			const b = document.querySelector('#decision button[data-key="1"]');
			if (b && !b.disabled) { b.click(); return "clicked"; }
			return "";
		})()`)
		if state == "over" {
			break
		}
		if state == "clicked" {
			clicks++
		}
		if clicks == 20 && !dropped {
			ts.http.CloseClientConnections() // every stream drops; EventSource reconnects with Last-Event-ID
			dropped = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end in 3 minutes (%d clicks)", clicks)
		}
		time.Sleep(15 * time.Millisecond)
	}
	if clicks < 10 {
		t.Fatalf("a game of %d clicks", clicks)
	}
	screenshot(t, ctx, "game-over")

	// Both tabs end with every event once, in order.
	n := eval[int](t, ctx, `document.querySelectorAll("#feed li").length`)
	const contiguous = `(() => { const s = [...document.querySelectorAll("#feed li")].map(l => +l.dataset.seq);
		return s.every((v, i) => i === 0 || v === s[i-1] + 1) ? s.length : -1; })()`
	waitFor(t, spec, "the spectator's events", fmt.Sprintf(`document.querySelectorAll("#feed li").length >= %d`, min(n, 300)))
	for name, tab := range map[string]context.Context{"player": ctx, "spectator": spec} {
		if got := eval[int](t, tab, contiguous); got < 0 {
			t.Errorf("%s: the feed has a gap or a repeat after the dropped stream", name)
		}
	}
	playerFeed := eval[string](t, ctx, `[...document.querySelectorAll("#feed li")].slice(-50).map(l => l.textContent).join("\n")`)
	specFeed := eval[string](t, spec, `[...document.querySelectorAll("#feed li")].slice(-50).map(l => l.textContent).join("\n")`)
	if playerFeed != specFeed {
		t.Errorf("the tabs saw different events:\n%s\n---\n%s", playerFeed, specFeed)
	}
	waitFor(t, spec, "the chances to win", `/playouts/.test(document.getElementById("odds-note").textContent)`)
	screenshot(t, spec, "spectator")

	// A spectator has no fork (it would show the seats' past); the
	// creator's research view scrubs back and forks.
	if eval[bool](t, spec, `document.getElementById("fork") !== null`) {
		t.Fatal("a spectator of a game whose research view is closed is offered a fork")
	}
	err = chromedp.Do(spec,
		chromedp.Navigate(research),
		chromedp.WaitVisible("#board svg"),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("scrub"); s.value = 40; s.dispatchEvent(new Event("input")); })()`),
		chromedp.Click("#fork"),
		chromedp.WaitVisible("#fork-link"),
	)
	if err != nil {
		t.Fatal(err)
	}
	fork := eval[string](t, spec, `document.getElementById("fork-link").href`)
	if !strings.Contains(fork, "/games/") || strings.Contains(fork, seatLink) {
		t.Fatalf("fork link %q", fork)
	}
	if err := chromedp.Do(spec, chromedp.Navigate(fork), chromedp.WaitVisible("#board svg")); err != nil {
		t.Fatal(err)
	}
	if n := ts.games(t); n != 2 {
		t.Fatalf("%d games after the fork, want 2", n)
	}
	screenshot(t, spec, "fork")

	// At phone width the game page fits without scrolling sideways.
	err = chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(seatLink), chromedp.WaitVisible("#board svg"))
	if err != nil {
		t.Fatal(err)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("at phone width the page is %d pixels too wide", w)
	}
	screenshot(t, ctx, "phone")

	// The lobby offers the creator's browser its seats and a delete.
	err = chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(ts.http.URL+"/"), chromedp.WaitVisible("tr[data-id] .actions"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the creator's links in the lobby", `[...document.querySelectorAll(".actions a")].some(a => a.textContent === "play seat 1")`)
	eval[bool](t, ctx, `(() => { window.confirm = () => true; [...document.querySelectorAll(".actions button")].find(b => b.textContent === "delete").click(); return true; })()`)
	deadline = time.Now().Add(10 * time.Second)
	for ts.games(t) != 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := ts.games(t); n != 1 {
		t.Fatalf("%d games after deleting one of 2", n)
	}
}

// A person plays Monopoly Deal against the bundled agent in the browser,
// starting the game (the agent has not moved yet), clicking a move until
// the game ends; the hand and the tables are drawn as cards, the start
// page promises the sets the game plays to, and the agent's moves show
// their probabilities.
func TestBrowserDeal(t *testing.T) {
	ts := newTestServer(t)
	ctx := browser(t)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(ts.http.URL+"/deal"),
		chromedp.WaitVisible("#policy"),
	)
	if err != nil {
		t.Fatal(err)
	}
	promise := eval[string](t, ctx, `(document.querySelector("main").textContent.match(/(\S+) complete property sets/) || [])[1] || "no promise"`)
	err = chromedp.Do(ctx,
		chromedp.SetValue("#policy", "bundled"),
		chromedp.SetValue("#first", "you"),
		chromedp.Click("form.new-game button[type=submit]"),
		chromedp.WaitVisible("#status"),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the hand's cards", `document.querySelectorAll("#hand .dcard").length > 0`)
	if status := eval[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(status, promise+" complete sets win") {
		t.Errorf("the start page promised %s complete sets; the game says %q", promise, status)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		state := eval[string](t, ctx, `(() => {
			const s = document.getElementById("status").textContent;
			if (/^(You win|The agent wins|A draw)/.test(s)) return "over";
			const b = document.querySelector('#moves button[data-key="1"]');
			if (b && !b.disabled) { b.click(); return "clicked"; }
			return "";
		})()`)
		if state == "over" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Monopoly Deal game did not end in 2 minutes")
		}
		time.Sleep(15 * time.Millisecond)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll("#log li.agent")].filter(l => /—\s*[<\d]/.test(l.textContent)).length`); n == 0 {
		t.Fatal("no agent move shows its probability")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#sides .dset .dcard.property").length`); n == 0 {
		t.Error("no property set is drawn with cards at the game's end")
	}
	screenshot(t, ctx, "deal")
}
