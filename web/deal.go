package web

import (
	crand "crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopoly/gopoly/deal"
)

// Monopoly Deal in the browser: a person against the CFR agent (the
// bundled policy, one trained with gopoly deal train and put in the deal
// directory's policies/, or a reference agent), with the probability the
// agent's policy gave each of its moves. The games are short and live in
// memory; each one's record (deal.Record, replayable with deal.Replay) is
// kept in the deal directory after every move.

const dealHuman, dealAgent = deal.Person, deal.Opponent

// maxDealGames bounds the Deal games kept in memory: past it, starting
// one drops the one left longest untouched (its record stays on disk).
const maxDealGames = 1000

type dealGame struct {
	mu     sync.Mutex
	used   time.Time // when its page or a move last asked for it; under Server.mu
	id     string
	token  string
	policy string
	m      *deal.Match
	log    []dealLine
}

// dealLine is one move of the game's log, in words.
type dealLine struct {
	Turn int    `json:"turn"`
	Who  string `json:"who"` // "you" or "agent"
	Text string `json:"text"`
	// Prob is the probability the agent's policy gave its move ("" for
	// yours, or when it had one move); Note says how it plays there.
	Prob string `json:"prob,omitempty"`
	Note string `json:"note,omitempty"`
}

func (s *Server) dealRoutes() {
	s.mux.HandleFunc("GET /deal", s.dealLobby)
	s.mux.HandleFunc("POST /deal", s.guard(s.dealCreate))
	s.mux.HandleFunc("GET /deal/{id}", s.dealPage)
	s.mux.HandleFunc("GET /deal/{id}/state", s.dealState)
	s.mux.HandleFunc("POST /deal/{id}/move", s.guard(s.dealMove))
}

// dealPolicies lists the agents a game may be played against: the
// bundled policy, the checkpoints in the deal directory's policies/, and
// the reference agents.
func (s *Server) dealPolicies() []string {
	out := []string{"bundled"}
	if s.o.DealDir != "" {
		files, _ := filepath.Glob(filepath.Join(s.o.DealDir, "policies", "*.json"))
		for _, f := range files {
			out = append(out, filepath.Base(f))
		}
	}
	return append(out, deal.ReferenceAgents()...)
}

// dealAgentFor makes the agent a policy name stands for, as gopoly deal
// play does under its default preset, except that a checkpoint is named
// by its file in the deal directory's policies/.
func (s *Server) dealAgentFor(name string) (deal.Seat, *deal.Rules, error) {
	return deal.NewAgent(name, deal.Paper(), func(name string) (string, error) {
		if s.o.DealDir == "" || !validPolicyName(name) {
			return "", fmt.Errorf("no policy %q (policies: %s)", name, strings.Join(s.dealPolicies(), ", "))
		}
		return filepath.Join(s.o.DealDir, "policies", name), nil
	})
}

// validPolicyName keeps a policy's name inside the policies directory.
func validPolicyName(name string) bool {
	return strings.HasSuffix(name, ".json") && filepath.Base(name) == name && !strings.HasPrefix(name, ".")
}

func (s *Server) dealLobby(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	paper := deal.Paper() // the rules dealAgentFor plays under
	s.pages.ExecuteTemplate(w, "deal_lobby.html", map[string]any{"CSRF": s.csrf, "Policies": s.dealPolicies(), "Required": paper.RequiredSets, "Colours": len(paper.Colours)})
}

// dealCreate starts a game against the form's policy; who starts is the
// form's "first" (you or agent).
func (s *Server) dealCreate(w http.ResponseWriter, r *http.Request) {
	agent, rules, err := s.dealAgentFor(r.FormValue("policy"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "bad_policy", err.Error())
		return
	}
	starter := dealHuman
	switch r.FormValue("first") {
	case "", "you":
	case "agent":
		starter = dealAgent
	default:
		s.fail(w, r, http.StatusBadRequest, "bad_first", "first: you or agent")
		return
	}
	seed := randomSeed()
	dg := &dealGame{id: crand.Text()[:12], token: crand.Text(), policy: r.FormValue("policy"), m: deal.NewMatch(rules, agent, seed, starter)}
	dg.mu.Lock()
	err = s.dealAgentPlays(dg)
	dg.mu.Unlock()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	s.mu.Lock()
	s.keepDeal(dg)
	s.mu.Unlock()
	link := "/deal/" + dg.id + "?token=" + dg.token
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, map[string]string{"id": dg.id, "link": link})
		return
	}
	http.Redirect(w, r, link, http.StatusSeeOther)
}

// keepDeal adds dg to the games in memory, dropping the least recently
// used while there are s.maxDeals or more. Called with s.mu held.
func (s *Server) keepDeal(dg *dealGame) {
	for len(s.deals) >= s.maxDeals {
		var oldest *dealGame
		for _, g := range s.deals {
			if oldest == nil || g.used.Before(oldest.used) {
				oldest = g
			}
		}
		delete(s.deals, oldest.id)
	}
	dg.used = time.Now()
	s.deals[dg.id] = dg
}

// dealAgentPlays lets the agent move until it is the person's turn or the
// game is over, and saves the record. Called with dg.mu held.
func (s *Server) dealAgentPlays(dg *dealGame) error {
	err := dg.m.AgentPlays(func(g *deal.Game, mv deal.AgentMove) {
		line := dealLine{Turn: g.Turn() + 1, Who: "agent", Text: deal.Describe(g, mv.Action)}
		if mv.InfoSet.Mask.Count() > 1 {
			line.Prob, line.Note = deal.Percent(mv.Probs[mv.Abstract]), mv.Note
		}
		dg.log = append(dg.log, line)
	})
	if err != nil || s.o.DealDir == "" {
		return err
	}
	dir := filepath.Join(s.o.DealDir, "games")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return dg.m.Save(filepath.Join(dir, dg.id+".json"))
}

// dealOf finds the request's game and checks its token.
func (s *Server) dealOf(w http.ResponseWriter, r *http.Request) (*dealGame, bool) {
	s.mu.Lock()
	dg, ok := s.deals[r.PathValue("id")]
	if ok {
		dg.used = time.Now()
	}
	s.mu.Unlock()
	if !ok {
		s.fail(w, r, http.StatusNotFound, "not_found", fmt.Sprintf("no Monopoly Deal game %s (games live until the server stops, and the %d most recently played; their records stay in the deal directory)", r.PathValue("id"), maxDealGames))
		return nil, false
	}
	if subtle.ConstantTimeCompare([]byte(token(r)), []byte(dg.token)) != 1 {
		s.fail(w, r, http.StatusForbidden, "bad_token", "this game's link carries its token")
		return nil, false
	}
	return dg, true
}

func (s *Server) dealPage(w http.ResponseWriter, r *http.Request) {
	dg, ok := s.dealOf(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.pages.ExecuteTemplate(w, "deal.html", map[string]any{"ID": dg.id, "Token": dg.token, "CSRF": s.csrf, "Policy": dg.policy})
}

// dealView is the game as the person sees it.
type dealView struct {
	Turn     int        `json:"turn"`
	Status   string     `json:"status"`
	Over     bool       `json:"over"`
	Result   string     `json:"result,omitempty"`
	Deck     int        `json:"deck"`
	Hand     string     `json:"hand"`
	Cards    []dealCard `json:"hand_cards"` // the hand, card by card kind, for the page to draw
	Players  []dealSide `json:"players"`    // you, then the agent
	Moves    []string   `json:"moves"`      // your legal moves, when it is your turn
	Log      []dealLine `json:"log"`
	Required int        `json:"required_sets"`
}

type dealSide struct {
	Name       string     `json:"name"`
	HandSize   int        `json:"hand_size"`
	Bank       string     `json:"bank"`
	BankValue  int        `json:"bank_value"`
	Properties []string   `json:"properties"`
	Complete   int        `json:"complete_sets"`
	BankCards  []dealCard `json:"bank_cards"`
	Sets       []dealSet  `json:"sets"` // the colours it holds properties of
}

// dealCard is a kind of card and how many of it a hand or bank holds.
type dealCard struct {
	Class  string `json:"class"`            // cash, property, rent or just_say_no
	Colour string `json:"colour,omitempty"` // a property's or rent card's colour
	Name   string `json:"name"`             // in words
	Value  int    `json:"value"`            // in $M
	Count  int    `json:"count"`
}

// dealSet is a player's properties of one colour.
type dealSet struct {
	Colour string `json:"colour"`
	Have   int    `json:"have"`
	Size   int    `json:"size"` // the cards that complete it
}

// dealCards lists the card kinds count gives a number to.
func dealCards(r *deal.Rules, count func(deal.Card) int) []dealCard {
	out := []dealCard{}
	for k := 0; k < r.Kinds(); k++ {
		c := deal.Card(k)
		n := count(c)
		if n == 0 {
			continue
		}
		dc := dealCard{Class: dealClasses[r.Class(c)], Name: deal.CardName(r, c), Value: r.Value(c), Count: n}
		if cl := r.Class(c); cl == deal.ClassProperty || cl == deal.ClassRent {
			dc.Colour = r.ColourName(r.ColourOf(c))
		}
		out = append(out, dc)
	}
	return out
}

var dealClasses = map[deal.CardClass]string{deal.ClassCash: "cash", deal.ClassProperty: "property", deal.ClassRent: "rent", deal.ClassJustSayNo: "just_say_no"}

func (dg *dealGame) view() dealView {
	g := dg.m.Game()
	v := g.View(dealHuman)
	r := v.Rules()
	hand := func(c deal.Card) int { return v.Hand(c) }
	// A game the agent has not moved in yet has no log: the page gets an
	// empty list, not null.
	out := dealView{Turn: v.Turn() + 1, Over: g.Over(), Deck: v.DeckSize(), Required: r.Config().RequiredSets, Log: append([]dealLine{}, dg.log...),
		Hand: deal.Cards(r, hand), Cards: dealCards(r, hand)}
	for _, p := range []int{dealHuman, dealAgent} {
		bank := func(c deal.Card) int { return v.Bank(p, c) }
		side := dealSide{Name: map[int]string{dealHuman: "You", dealAgent: "Agent"}[p], HandSize: v.HandSize(p), BankValue: v.BankValue(p),
			Bank: deal.Cards(r, bank), BankCards: dealCards(r, bank), Complete: v.CompleteSets(p), Properties: []string{}, Sets: []dealSet{}}
		for c := 0; c < r.Colours(); c++ {
			if n := v.Properties(p, c); n > 0 {
				side.Properties = append(side.Properties, fmt.Sprintf("%s %d/%d", r.ColourName(c), n, r.SetSize(c)))
				side.Sets = append(side.Sets, dealSet{Colour: r.ColourName(c), Have: n, Size: r.SetSize(c)})
			}
		}
		out.Players = append(out.Players, side)
	}
	switch {
	case g.Over():
		res := g.Result()
		out.Status = "game over"
		switch res.Winner {
		case dealHuman:
			out.Result = "You win"
		case dealAgent:
			out.Result = "The agent wins"
		default:
			out.Result = "A draw"
		}
	case g.ToAct() == dealHuman:
		out.Status = "your move"
		if resp, ok := v.Response(); ok {
			out.Status = fmt.Sprintf("the agent charged you %s for %s rent; %s paid so far", deal.Money(resp.Owed), r.ColourName(resp.Colour), deal.Money(resp.Paid))
		}
		for _, a := range g.Legal(nil) {
			out.Moves = append(out.Moves, deal.Describe(g, a))
		}
	}
	return out
}

func (s *Server) dealState(w http.ResponseWriter, r *http.Request) {
	dg, ok := s.dealOf(w, r)
	if !ok {
		return
	}
	dg.mu.Lock()
	defer dg.mu.Unlock()
	writeJSON(w, http.StatusOK, dg.view())
}

// dealMove plays the person's move {"move": i} (an index into the legal
// moves the state listed), then the agent's, and answers with the state.
// A move out of range, or when it is not the person's turn, changes
// nothing.
func (s *Server) dealMove(w http.ResponseWriter, r *http.Request) {
	dg, ok := s.dealOf(w, r)
	if !ok {
		return
	}
	var req struct {
		Move *int `json:"move"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil || req.Move == nil {
		s.fail(w, r, http.StatusBadRequest, "bad_request", `want {"move": N}, N the index of one of the moves the state lists`)
		return
	}
	dg.mu.Lock()
	defer dg.mu.Unlock()
	g := dg.m.Game()
	if g.Over() || g.ToAct() != dealHuman {
		s.fail(w, r, http.StatusConflict, "not_your_move", "it is not your move")
		return
	}
	legal := g.Legal(nil)
	if *req.Move < 0 || *req.Move >= len(legal) {
		s.fail(w, r, http.StatusUnprocessableEntity, "no_such_move", fmt.Sprintf("move %d: there are %d moves, from 0", *req.Move, len(legal)))
		return
	}
	a := legal[*req.Move]
	line := dealLine{Turn: g.Turn() + 1, Who: "you", Text: deal.Describe(g, a)}
	if err := dg.m.Play(a); err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, "refused", err.Error())
		return
	}
	dg.log = append(dg.log, line)
	if err := s.dealAgentPlays(dg); err != nil {
		s.o.Logger.Error("web: deal", "id", dg.id, "err", err)
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, dg.view())
}
