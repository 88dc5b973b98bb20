package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// webSeat is a person's seat of a game served in the browser: the game
// and the seat's token.
type webSeat struct{ game, token string }

// humanGame creates, on p, a game of a person (seat 0) against three
// baseline bots, and returns the person's seat.
func humanGame(b testing.TB, p *proc, csrf string, seed int) webSeat {
	b.Helper()
	form := url.Values{"seat0": {"human"}, "seat1": {"baseline"}, "seat2": {"baseline"}, "seat3": {"baseline"}, "seed": {strconv.Itoa(seed)}}
	var links struct {
		ID    string   `json:"id"`
		Seats []string `json:"seats"`
	}
	p.post(b, "/games", csrf, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), &links)
	_, tok, _ := strings.Cut(links.Seats[0], "token=")
	return webSeat{links.ID, tok}
}

// answerWeb answers the seat's pending decision on p with its first
// legal action, and returns the game's events after it (the next
// sequence number) and whether it is over.
func answerWeb(p *proc, csrf string, s webSeat) (events int, over bool, err error) {
	base := strings.TrimSuffix(p.url, "/") + "/games/" + s.game
	res, err := http.Get(base + "/state?token=" + s.token)
	if err != nil {
		return 0, false, err
	}
	var st struct {
		Entries int  `json:"entries"`
		Over    bool `json:"over"`
		Options *struct {
			Actions []json.RawMessage `json:"actions"`
		} `json:"options"`
	}
	err = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	switch {
	case err != nil:
		return 0, false, err
	case st.Over:
		return 0, true, nil
	case st.Options == nil || len(st.Options.Actions) == 0:
		return 0, false, fmt.Errorf("game %s at %d: nothing to answer", s.game, st.Entries)
	}
	body := append(append([]byte(`{"action":`), st.Options.Actions[0]...), '}')
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/answer?token=%s&at=%d", base, s.token, st.Entries), bytes.NewReader(body))
	req.Header.Set("X-Gopoly-CSRF", csrf)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		return 0, false, err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return 0, false, fmt.Errorf("answer: %s: %s", res.Status, data)
	}
	var prog struct {
		Events int  `json:"events"`
		Over   bool `json:"over"`
	}
	err = json.Unmarshal(data, &prog)
	return prog.Events, prog.Over, err
}

// quantile is the q-quantile of sorted ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// BenchmarkManyServersLatency: 200 spectators of one game, half on the
// process where a person answers and half on another, and how long after
// the answer is sent each sees its last event: the local ones by the
// game's own notification, the others by PostgreSQL's NOTIFY and a catch
// up. Reported in ms, p50 and p99 of each half.
//
//	go test ./cmd/gopoly -run '^$' -bench ManyServersLatency -benchtime 100x
func BenchmarkManyServersLatency(b *testing.B) {
	dsn := manyDSN(b)
	local, remote := startServe(b, dsn), startServe(b, dsn)
	csrf := local.csrf(b)
	seat := humanGame(b, local, csrf, 21)
	const spectators = 200
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var mu sync.Mutex
	seen := make([]int, spectators) // the last event each spectator saw
	at := make([]time.Time, spectators)
	cond := sync.NewCond(&mu)
	for i := range spectators {
		p := []*proc{local, remote}[i%2]
		ch := p.stream(ctx, b, "/games/"+seat.game+"/events", "")
		go func() {
			for f := range ch {
				mu.Lock()
				seen[i], at[i] = f.id, time.Now()
				cond.Broadcast()
				mu.Unlock()
			}
		}()
	}
	var lat [2][]time.Duration
	for b.Loop() {
		sent := time.Now()
		events, over, err := answerWeb(local, csrf, seat)
		if err != nil {
			b.Fatal(err)
		}
		if over {
			b.Fatal("the game ended: fewer iterations (-benchtime 100x)")
		}
		mu.Lock()
		for slices.ContainsFunc(seen, func(n int) bool { return n < events-1 }) {
			cond.Wait()
		}
		for i := range spectators {
			lat[i%2] = append(lat[i%2], at[i].Sub(sent))
		}
		mu.Unlock()
	}
	for i, name := range []string{"local", "remote"} {
		slices.Sort(lat[i])
		b.ReportMetric(float64(quantile(lat[i], 0.5).Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(quantile(lat[i], 0.99).Microseconds())/1000, name+"-p99-ms")
	}
}

// BenchmarkManyServersThroughput: answers per second of 40 games played
// at once, each answer (its read and its submit) on one process, or on
// each of two processes in turn; the bots' moves after each answer are
// played and stored by the process answered.
//
//	go test ./cmd/gopoly -run '^$' -bench ManyServersThroughput -benchtime 20x
func BenchmarkManyServersThroughput(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("processes=%d", n), func(b *testing.B) {
			dsn := manyDSN(b)
			var procs []*proc
			var csrfs []string
			for range n {
				p := startServe(b, dsn)
				procs, csrfs = append(procs, p), append(csrfs, p.csrf(b))
			}
			const games = 40
			seats := make([]webSeat, games)
			for g := range seats {
				seats[g] = humanGame(b, procs[g%n], csrfs[g%n], 100+g)
			}
			answers, k := 0, 0
			for b.Loop() {
				var wg sync.WaitGroup
				errs := make([]error, games)
				for g, s := range seats {
					p := (g + k) % n
					wg.Go(func() { _, _, errs[g] = answerWeb(procs[p], csrfs[p], s) })
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				answers += games
				k++
			}
			b.ReportMetric(float64(answers)/b.Elapsed().Seconds(), "answers/s")
		})
	}
}
