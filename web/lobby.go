package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
)

// presets are the rules a new game may start from, by name; an uploaded
// rules file goes on top.
var presets = []struct{ Name, Label, YAML string }{
	{"standard", "Standard (the rules reference)", ""},
	{"speed-die", "Speed die (standard edition)", "speed_die: true\n"},
	{"sealed", "Sealed deals (Monopyly's deal-making)", "deal_protocol: sealed\n"},
	{"monopyly", "Monopyly's: sealed deals, 500 rounds", "deal_protocol: sealed\nraise_to_buy: true\nmax_rounds: 500\nnet_worth: resale\n"},
	{"counters", "Counter-offers (MonopolyBench)", "counter_offers: true\n"},
	{"jackpot", "Free Parking jackpot, lesser income tax", "free_parking_jackpot: true\nincome_tax: lesser\n"},
	{"uk", "UK: no double rent beside a mortgage", "mortgaged_group_double_rent: false\n"},
	{"no-auctions", "No auctions", "auctions: false\n"},
	{"timed", "Timed: 100 rounds, then net worth", "max_rounds: 100\n"},
	{"quick", "Quick: 20 rounds, then net worth", "max_rounds: 20\n"},
}

// gameRow is a game as the lobby lists it: public facts only, never its
// tokens.
type gameRow struct {
	ID     string         `json:"id"`
	Parent string         `json:"parent,omitempty"`
	Seats  []session.Seat `json:"seats"`
	Status session.Status `json:"status"`
	Paced  bool           `json:"paced"`
}

// lobby lists the games and offers a new one.
func (s *Server) lobby(w http.ResponseWriter, r *http.Request) {
	list, err := table.List(r.Context(), s.o.Sessions, false, nil) // a damaged record is gopoly sessions' to report
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	rows := make([]gameRow, 0, len(list))
	for _, g := range list {
		rows = append(rows, gameRow{ID: g.ID, Parent: g.Parent, Seats: g.Seats, Status: g.Status, Paced: s.drivers.Pace(g.ID).Paced})
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, rows)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err = s.pages.ExecuteTemplate(w, "lobby.html", map[string]any{
		"CSRF": s.csrf, "Games": rows, "Bots": botNames(), "Presets": presets, "Names": session.DefaultNames,
		"Seats": []int{0, 1, 2, 3, 4, 5, 6, 7}, "Default": []string{"shark", "professor", "hustler", "turtle"},
		"LLM": llmSeats(),
	})
	if err != nil {
		s.o.Logger.Error("web: lobby", "err", err)
	}
}

// createGame starts a game from the lobby's form: seat0..seat7 (a bot's
// name, "human", or "" for no seat) with name0..name7, a rules preset, an
// optional uploaded rules file, a seed and the research checkbox. A bad
// form changes nothing and says what was wrong, for a rules file with its
// line and field.
func (s *Server) createGame(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(maxBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		s.fail(w, r, http.StatusBadRequest, "bad_form", "the form could not be read: "+err.Error())
		return
	}
	setup, err := parseNewGame(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "bad_game", err.Error())
		return
	}
	ctx := context.WithoutCancel(r.Context()) // a new game is made whole, whoever waits for it
	sess, err := s.o.Sessions.Create(ctx, setup)
	if err != nil {
		s.sessionError(w, r, err)
		return
	}
	if err := s.drivers.Begin(ctx, sess); err != nil {
		s.sessionError(w, r, err)
		return
	}
	l := s.links(sess)
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, l)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.pages.ExecuteTemplate(w, "created.html", map[string]any{"Links": l, "Names": setup.Names(), "Seats": setup.Seats})
}

// parseNewGame reads the lobby's form into a setup: each seat read once
// (a bot's name is looked up once, by the session), the rules checked
// once, here, for a message that names the uploaded file, and handed on
// compiled.
func parseNewGame(r *http.Request) (session.Setup, error) {
	var seats []session.Seat
	for i := range monopoly.MaxPlayers {
		kind := strings.TrimSpace(r.FormValue(fmt.Sprintf("seat%d", i)))
		if kind == "" {
			continue
		}
		name := strings.TrimSpace(r.FormValue(fmt.Sprintf("name%d", i)))
		if len(name) > 24 {
			return session.Setup{}, fmt.Errorf("seat %d: a name of at most 24 characters", i+1)
		}
		seat, err := session.ParseSeat(kind)
		if err != nil {
			return session.Setup{}, fmt.Errorf("seat %d %w", i+1, err)
		}
		seat.Name = name
		seats = append(seats, seat)
	}
	if len(seats) < 2 {
		return session.Setup{}, errors.New("seats: choose at least two players")
	}
	preset := r.FormValue("preset")
	i := slices.IndexFunc(presets, func(p struct{ Name, Label, YAML string }) bool { return p.Name == preset })
	if i < 0 && preset != "" {
		return session.Setup{}, fmt.Errorf("preset: no rules preset %q", preset)
	}
	text := ""
	if f, _, err := r.FormFile("rules"); err == nil {
		data, err := io.ReadAll(io.LimitReader(f, monopoly.MaxRulesBytes+1))
		f.Close()
		if err != nil {
			return session.Setup{}, fmt.Errorf("rules file: %v", err)
		}
		text = string(data)
	} else if t := r.FormValue("rules_text"); strings.TrimSpace(t) != "" {
		text = t
	}
	var rules table.Rules
	var err error
	if i < 0 {
		rules, err = table.ParseRules("rules.yaml", text)
	} else {
		// A file goes on top of the preset: its keys replace the preset's.
		rules, err = table.ParseRules("preset "+preset, presets[i].YAML)
		if err == nil && strings.TrimSpace(text) != "" {
			rules, err = rules.With("rules.yaml", text)
		}
	}
	if err != nil {
		return session.Setup{}, err
	}
	seed := table.RandomSeed()
	if v := strings.TrimSpace(r.FormValue("seed")); v != "" {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return session.Setup{}, fmt.Errorf("seed: want a whole number, got %q", v)
		}
	}
	setup := rules.Setup(seed, seats)
	setup.Research = r.FormValue("research") != ""
	return setup, nil
}

// randomSeed draws a seed where the table service does (web/deal.go's
// games draw theirs here too).
var randomSeed = table.RandomSeed

// Demo starts a paced game of the four personalities, the page
// gopoly serve opens on, and returns its links.
func (s *Server) Demo(ctx context.Context) (gameLinks, error) {
	seats, err := session.ParseSeats("shark,professor,hustler,turtle")
	if err != nil {
		return gameLinks{}, err
	}
	sess, err := s.o.Sessions.Create(ctx, session.Setup{Seed: table.RandomSeed(), Seats: seats, Research: true})
	if err != nil {
		return gameLinks{}, err
	}
	if err := s.drivers.Begin(ctx, sess); err != nil {
		return gameLinks{}, err
	}
	return s.links(sess), nil
}

// llmSeats are the personalities on language models the lobby offers,
// when the llm package is linked in and their keys are set (a seat whose
// key is missing would only play its fallback).
func llmSeats() []string {
	var out []string
	for _, p := range []string{"shark", "professor", "hustler", "turtle"} {
		if name := "llm:" + p; agent.Ready(name) == nil {
			out = append(out, name)
		}
	}
	return out
}
