package web

import (
	"fmt"
	"net/http"

	"github.com/gopoly/gopoly/session"
)

// pace sets a paced game's speed: {"speed": 0.5..5}, {"pause": true},
// {"pause": false} or {"step": true}, through the game's driver
// (table.Drivers). Any holder of one of the game's tokens may; spectators
// only watch.
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
	p, err := s.drivers.Set(sess.ID(), req.Speed, req.Pause, req.Step)
	if err != nil {
		s.sessionError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}
