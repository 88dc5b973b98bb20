package web

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/agenttest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
)

// BenchmarkGamePageLoad is a game page's first load over loopback: the
// page with its board, its script and style sheet, and the state its
// script asks for.
func BenchmarkGamePageLoad(b *testing.B) {
	ts := newTestServer(b)
	l, err := ts.Demo(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	get := func(path string) {
		res, err := http.Get(ts.http.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
	for b.Loop() {
		get(l.Research)
		get("/static/game.js")
		get("/static/gopoly.css")
		get("/games/" + l.ID + "/state?token=" + tokenOf(l.Research))
	}
}

// BenchmarkSpectators measures the lag from an answer's commit to its
// last event reaching each of 200 spectators' streams: a person answers
// a game against a bot that buys nothing (so that it lasts), the
// spectators read their server-sent events.
// It reports the median and the 99th percentile over every answer and
// spectator.
func BenchmarkSpectators(b *testing.B) {
	const spectators = 200
	ts := newTestServer(b)
	ctx := context.Background()
	seats, _ := session.ParseSeats("human,test-idle") // buys nothing: the game lasts its thousand rounds
	sess, err := ts.m.Create(ctx, session.Setup{Seed: 3, Seats: seats, Rules: "max_rounds: 1000\n"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sess.Advance(ctx, 0); err != nil {
		b.Fatal(err)
	}
	me := sess.Tokens().Seats[0]
	// arrived[k] is when spectator k saw each event, by sequence number.
	var mu sync.Mutex
	arrived := make([]map[int]time.Time, spectators)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var ready sync.WaitGroup
	for k := range spectators {
		arrived[k] = map[int]time.Time{}
		ready.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(sctx, "GET", ts.http.URL+"/games/"+sess.ID()+"/events", nil)
			res, err := http.DefaultClient.Do(req)
			ready.Done()
			if err != nil {
				return
			}
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
					n, _ := strconv.Atoi(id)
					mu.Lock()
					arrived[k][n] = time.Now()
					mu.Unlock()
				}
			}
		}()
	}
	ready.Wait()
	type commit struct {
		last int
		at   time.Time
	}
	var commits []commit
	for b.Loop() {
		p, err := sess.Pending(me)
		if err != nil {
			b.Fatal(err)
		}
		if p.Over {
			b.Fatal("the game ended: give it more rounds")
		}
		prog, err := sess.Submit(ctx, me, agent.Answer{}, table.Answer(table.JSON, []byte(`{"action":`+string(p.Options.Actions[0])+`}`)))
		if err != nil {
			b.Fatal(err)
		}
		commits = append(commits, commit{prog.Events - 1, time.Now()})
	}
	b.StopTimer()
	time.Sleep(500 * time.Millisecond) // the last events on their way
	cancel()
	mu.Lock()
	defer mu.Unlock()
	var lags []float64
	missed := 0
	for _, c := range commits {
		for k := range spectators {
			t, ok := arrived[k][c.last]
			if !ok {
				missed++
				continue
			}
			lags = append(lags, float64(max(0, t.Sub(c.at)))/float64(time.Millisecond))
		}
	}
	if missed > 0 {
		b.Fatalf("%d events never reached a spectator", missed)
	}
	slices.Sort(lags)
	if len(lags) > 0 {
		b.ReportMetric(lags[len(lags)/2], "ms-lag-p50")
		b.ReportMetric(lags[len(lags)*99/100], "ms-lag-p99")
	}
}
