package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gopoly/gopoly/session"
)

// A game of bots alone would be played to its end in a moment; the pacer
// plays it one event at a time so that people can watch it, at a speed
// anyone holding one of its tokens sets: paused (and stepped), or 0.5× to
// 5×. Games with people need no pacer: the bots answer at once and the
// page shows their moves as they come.

// step is the time between two events at 1×.
const step = 700 * time.Millisecond

// Speeds a pacer takes.
const (
	minSpeed = 0.5
	maxSpeed = 5
)

// paceState is how a game is paced, for the page.
type paceState struct {
	Paced  bool    `json:"paced"` // a game of bots the server plays at a speed
	Speed  float64 `json:"speed"`
	Paused bool    `json:"paused"`
}

type pacer struct {
	sess   *session.Session
	speed  float64
	paused bool
	wake   chan struct{} // a change of speed or a step
	steps  int           // steps asked while paused
	events int           // the game's events after the last step; -1 before the first
}

// startPacer starts pacing sess, a game of bots, at 1× unless a pacer plays it
// already.
func (s *Server) startPacer(sess *session.Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pacers[sess.ID()]; ok || sess.Status().Over {
		return
	}
	p := &pacer{sess: sess, speed: 1, wake: make(chan struct{}, 1), events: -1}
	s.pacers[sess.ID()] = p
	s.wg.Add(1)
	go s.play(p)
}

// allBots reports whether every seat of setup is a bot.
func allBots(setup session.Setup) bool {
	for _, seat := range setup.Seats {
		if seat.Kind.Waits() {
			return false
		}
	}
	return true
}

func (s *Server) paceOf(id string) paceState {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pacers[id]
	if !ok {
		return paceState{}
	}
	return paceState{Paced: true, Speed: p.speed, Paused: p.paused}
}

func (s *Server) stopPacer(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pacers, id)
}

// play advances p's game one event per beat until it ends, the server
// closes or the game is deleted.
func (s *Server) play(p *pacer) {
	defer s.wg.Done()
	id := p.sess.ID()
	defer s.stopPacer(id)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if s.pacers[id] != p {
			s.mu.Unlock()
			return // deleted
		}
		paused, speed, stepping := p.paused, p.speed, p.steps > 0
		if stepping {
			p.steps--
		}
		s.mu.Unlock()
		if !paused || stepping {
			over, err := s.advanceEvent(p)
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					s.o.Logger.Error("web: pacing", "id", id, "err", err)
				}
				return
			}
			if over {
				return
			}
		}
		wait := time.Duration(float64(step) / speed)
		if paused && !stepping {
			wait = time.Hour // until woken
		}
		timer.Reset(wait)
		select {
		case <-s.ctx.Done():
			return
		case <-p.wake:
			if !timer.Stop() {
				<-timer.C
			}
		case <-timer.C:
		}
	}
}

// advanceEvent plays bot answers until the game has a new event, ends, or
// waits for a person. Answers that change nothing visible (a bot's
// building checks) are played in the same beat.
func (s *Server) advanceEvent(p *pacer) (over bool, err error) {
	for range 1000 {
		prog, err := p.sess.Advance(s.ctx, 1)
		if err != nil {
			return false, err
		}
		// A beat ends with a new event (the first beat with one answer),
		// the game's end, a person to wait for, or nothing to play.
		seen := p.events
		p.events = prog.Events
		if prog.Events > seen || prog.Over || prog.Waiting >= 0 || prog.Played == 0 {
			return prog.Over, nil
		}
	}
	return false, nil
}

// pace sets a paced game's speed: {"speed": 0.5..5}, {"pause": true},
// {"pause": false} or {"step": true}. Any holder of one of the game's
// tokens may; spectators only watch.
func (s *Server) pace(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	if !sess.Holds(token(r)) {
		s.fail(w, r, http.StatusForbidden, session.CodeBadToken, "pacing a game takes one of its links with a token")
		return
	}
	var req struct {
		Speed *float64 `json:"speed"`
		Pause *bool    `json:"pause"`
		Step  bool     `json:"step"`
	}
	if err := decodeBody(w, r, 4096, &req); err != nil || req.Speed == nil && req.Pause == nil && !req.Step {
		s.fail(w, r, http.StatusBadRequest, "bad_request", fmt.Sprintf("pace: want {\"speed\": 0.5-5}, {\"pause\": true|false} or {\"step\": true} (%v)", err))
		return
	}
	if req.Speed != nil && (*req.Speed < minSpeed || *req.Speed > maxSpeed) {
		s.fail(w, r, http.StatusBadRequest, "bad_speed", "speed: from 0.5 to 5")
		return
	}
	s.mu.Lock()
	p, ok := s.pacers[sess.ID()]
	if ok {
		if req.Speed != nil {
			p.speed = *req.Speed
		}
		if req.Pause != nil {
			p.paused = *req.Pause
		}
		if req.Step {
			p.paused = true
			p.steps++
		}
	}
	s.mu.Unlock()
	if !ok {
		s.fail(w, r, http.StatusConflict, "not_paced", "this game is not paced: it has people at the table, or it is over")
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
	writeJSON(w, http.StatusOK, s.paceOf(sess.ID()))
}
