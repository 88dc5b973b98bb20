package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

// gamePage is a game's page: the board, the panels and the scripts that
// keep them live. The token in its link decides whose page it is.
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	setup := sess.Setup()
	if table.AllBots(setup) {
		s.drivers.Begin(r.Context(), sess) // a game of bots left unfinished by a restart goes on
	}
	tok := viewToken(r, sess)
	st, err := s.stateOf(sess, tok)
	if err != nil {
		s.sessionError(w, r, err)
		return
	}
	p := st.Pending
	data := map[string]any{
		"ID": sess.ID(), "CSRF": s.csrf, "Token": token(r), "Seat": p.Seat, "Setup": setup,
		"Names": setup.Names(), "State": st, "Board": template.HTML(render.SVG(p.View)), "Board0": render.Text(p.View), // the SVG escapes what it draws
		"Research": tok != "" && p.Seat < 0, "Control": token(r) != "", "PlayedBy": playedByAll(setup.Seats),
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.pages.ExecuteTemplate(w, "game.html", data); err != nil {
		s.o.Logger.Error("web: game page", "err", err)
	}
}

// atParam reads the optional ?at= (a log entry) of a request: -1 for now.
func atParam(r *http.Request) (int, bool) {
	v := r.URL.Query().Get("at")
	if v == "" {
		return -1, true
	}
	at, err := strconv.Atoi(v)
	return at, err == nil && at >= 0
}

// snapshotAt is the game as the token's holder sees it, now or after log
// entry ?at=; it answers the request itself when it cannot.
func (s *Server) snapshotAt(w http.ResponseWriter, r *http.Request) (*session.Session, wire.Snapshot, bool) {
	sess, ok := s.open(w, r)
	if !ok {
		return nil, wire.Snapshot{}, false
	}
	at, ok := atParam(r)
	if !ok {
		s.fail(w, r, http.StatusBadRequest, "bad_request", "at: want a log entry, a whole number from 0")
		return nil, wire.Snapshot{}, false
	}
	if at < 0 {
		at = sess.Status().Entries
	}
	snap, err := sess.SnapshotAt(viewToken(r, sess), at)
	if err != nil {
		s.sessionError(w, r, err)
		return nil, wire.Snapshot{}, false
	}
	return sess, snap, true
}

// board is the board as the token's holder sees it, now or after log
// entry ?at=.
func (s *Server) board(w http.ResponseWriter, r *http.Request) {
	_, snap, ok := s.snapshotAt(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, render.SVG(snap))
}

// pastView is the game at a point of its past, for the page's replay
// scrubber: the players and the decision then, with the board.
type pastView struct {
	View wire.Snapshot `json:"view"`
	Text string        `json:"decision_text"` // the decision then, as a sentence
}

// past is the view after log entry ?at= as the token's holder sees it:
// scrubbing redraws the players and the decision from it, not only the
// board.
func (s *Server) past(w http.ResponseWriter, r *http.Request) {
	sess, snap, ok := s.snapshotAt(w, r)
	if !ok {
		return
	}
	setup := sess.Setup()
	writeJSON(w, http.StatusOK, pastView{View: snap, Text: render.DecisionIn(snap, setup.Names())})
}

// gameState is what the page's scripts redraw from.
type gameState struct {
	session.Pending
	Text string `json:"decision_text"` // the decision as a sentence for its seat
	// Labels are the buttons of options.actions, one each in their
	// order, in plain words; the actions stay the codes sent back.
	Labels []string `json:"labels"`
	// Waiting says whom the game waits for and for what, for the other
	// seats and spectators; "" when it waits for nobody.
	Waiting string         `json:"waiting_text"`
	Status  session.Status `json:"status"`
	Pace    table.Pace     `json:"pace"`
}

// stateOf is the state of sess as the holder of tok sees it.
func (s *Server) stateOf(sess *session.Session, tok string) (gameState, error) {
	p, err := sess.Pending(tok)
	if err != nil {
		return gameState{}, err
	}
	setup := sess.Setup()
	names := setup.Names()
	st := gameState{Pending: p, Text: render.DecisionIn(p.View, names), Labels: []string{},
		Waiting: render.Waiting(p.Decision, names), Status: sess.Status(), Pace: s.drivers.Pace(sess.ID())}
	if p.Options != nil {
		st.Labels = render.Labels(sess.Rules(), p.View, *p.Options)
	}
	return st, nil
}

// state is the token's holder's view, decision and options now.
func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	st, err := s.stateOf(sess, viewToken(r, sess))
	if err != nil {
		s.sessionError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// answer submits a person's answer: {"action": ..., "speech": ...} in the
// wire format. A refused answer changes nothing and comes back with the
// rule it broke and the legal options.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		s.fail(w, r, http.StatusRequestEntityTooLarge, "too_large", "an answer is at most 1 MiB")
		return
	}
	at := -1 // an answer that names the decision it was made for (?at=entries) is refused once the game moved on
	if v := r.URL.Query().Get("at"); v != "" {
		if at, err = strconv.Atoi(v); err != nil || at < 0 {
			s.fail(w, r, http.StatusBadRequest, "bad_request", "at: the entries of the decision answered, a whole number from 0")
			return
		}
	}
	// The bots play on after the answer: a client that goes away must not
	// cut that short, which would lose the answer with their moves.
	prog, err := sess.Submit(context.WithoutCancel(r.Context()), token(r), agent.Answer{}, session.At(at), table.Answer(table.JSON, body))
	if err != nil {
		s.sessionError(w, r, forPeople(sess, token(r), err))
		return
	}
	writeJSON(w, http.StatusOK, prog)
}

// forPeople words a refusal of the game for the person who answered:
// its code stays for programs, its message says the rule in plain words
// and names the seat that decides (render.Refusal).
func forPeople(sess *session.Session, tok string, err error) error {
	var ref *session.Refused
	if !errors.As(err, &ref) {
		return err
	}
	p, perr := sess.Pending(tok)
	if perr != nil {
		p.Decision = wire.Decision{Player: -1}
	}
	setup := sess.Setup()
	ref.Message = render.Refusal(ref.Refusal, p.Decision, setup.Names()) // the refusal is this answer's own
	return err
}

// fork opens a new game from a game's position after log entry at, with
// seats that may be changed, and answers with its links. The new game's
// links see its past, every seat's thoughts and sealed limits included,
// so forking takes the research view: the game's research link, or a
// game whose creator opened the view to spectators.
func (s *Server) fork(w http.ResponseWriter, r *http.Request) {
	_, ok := s.openFor(w, r, (*session.Session).SeesResearch, "a fork shows every seat's past: it takes the game's research link, or a game whose research view is open to spectators")
	if !ok {
		return
	}
	req := struct {
		At    *int   `json:"at"`
		Seats string `json:"seats"` // as gopoly play --seats; "" keeps them
		Take  *int   `json:"take"`  // a seat a person takes, the others kept
	}{}
	if err := decodeBody(w, r, maxBody, &req); err != nil || req.At == nil {
		s.fail(w, r, http.StatusBadRequest, "bad_request", fmt.Sprintf("fork: want {\"at\": N, \"seats\": \"...\"} or {\"at\": N, \"take\": SEAT} (%v)", err))
		return
	}
	var seats []session.Seat
	switch {
	case req.Take != nil:
		if *req.Take < 0 || *req.Take >= monopoly.MaxPlayers {
			s.fail(w, r, http.StatusBadRequest, "bad_seats", "take: no such seat")
			return
		}
		seats = make([]session.Seat, *req.Take+1)
		seats[*req.Take].Kind = session.SeatHuman
	case req.Seats != "":
		var err error
		if seats, err = session.ParseSeats(req.Seats); err != nil {
			s.fail(w, r, http.StatusBadRequest, "bad_seats", err.Error())
			return
		}
	}
	ctx := context.WithoutCancel(r.Context()) // a new game is made whole, whoever waits for it
	f, err := s.o.Sessions.Fork(ctx, r.PathValue("id"), *req.At, seats)
	if err != nil {
		if table.Classify(err).Code == table.CodeBadSetup {
			s.fail(w, r, http.StatusBadRequest, "bad_seats", err.Error()) // a seat the session could not seat
			return
		}
		s.sessionError(w, r, err)
		return
	}
	if err := s.drivers.Begin(ctx, f); err != nil {
		s.sessionError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.links(f))
}

// pace sets a paced game's speed: {"speed": 0.5..5}, {"pause": true},
// {"pause": false} or {"step": true}, through the game's driver
// (table.Drivers). Any holder of one of the game's tokens may; spectators
// only watch.
func (s *Server) pace(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.openFor(w, r, (*session.Session).Holds, "pacing a game takes one of its links with a token")
	if !ok {
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

// gameLinks are the links of a new game: one for each person's seat,
// one to watch, and the research view's.
type gameLinks struct {
	ID       string   `json:"id"`
	Watch    string   `json:"watch"`
	Research string   `json:"research"`
	Seats    []string `json:"seats"` // by seat; "" for a bot's
}

func (s *Server) links(sess *session.Session) gameLinks {
	base := "/games/" + sess.ID()
	t := sess.Tokens()
	l := gameLinks{ID: sess.ID(), Watch: base, Research: base + "?token=" + t.Research, Seats: make([]string, len(t.Seats))}
	for i, tok := range t.Seats {
		if tok != "" {
			l.Seats[i] = base + "?token=" + tok
		}
	}
	return l
}

// deleteGame removes a game; only its research token (the creator's)
// may.
func (s *Server) deleteGame(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.openFor(w, r, (*session.Session).IsResearch, "only the game's creator (its research link) may delete it")
	if !ok {
		return
	}
	s.drivers.Stop(sess.ID())
	s.oddsOf.Forget(sess.ID())
	if err := s.o.Sessions.Delete(r.Context(), sess.ID()); err != nil {
		s.sessionError(w, r, err)
		return
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, map[string]string{"deleted": sess.ID()})
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// odds is each player's chance to win from the public position, by
// Monte Carlo playouts of baselines (arena.WinOdds), for the page's
// win-probability line: computed once per position, whoever asks
// (table.Odds).
func (s *Server) odds(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.open(w, r)
	if !ok {
		return
	}
	o, err := s.oddsOf.Of(r.Context(), sess, arena.OddsOptions{Samples: 400}, nil)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "odds", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, o)
}

// botNames lists the bots a seat may be, for the lobby's form.
func botNames() []string { return agent.Names() }
