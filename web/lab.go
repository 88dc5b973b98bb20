package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/monopoly"
)

// The lab pages launch experiments from a spec, follow their progress
// live, and show their results tables and plots. Runs are lab.Manager's:
// the MCP server's experiments are the same ones.

func (s *Server) labRoutes() {
	s.mux.HandleFunc("GET /lab", s.labPage)
	s.mux.HandleFunc("POST /lab", s.guard(s.labStart))
	s.mux.HandleFunc("POST /lab/tournament", s.guard(s.labTournament))
	s.mux.HandleFunc("GET /lab/{id}", s.labRun)
	s.mux.HandleFunc("GET /lab/{id}/events", s.labEvents)
	s.mux.HandleFunc("GET /lab/{id}/plots/{name}", s.labPlot)
	s.mux.HandleFunc("POST /lab/{id}/cancel", s.guard(s.labCancel))
	s.mux.HandleFunc("POST /lab/{id}/resume", s.guard(s.labResume))
}

// exampleSpec fills the lab's form: the planner against three baselines.
const exampleSpec = `name: planning-vs-baselines
seeds: {start: 1, count: 200, step: 1}
detail: stats
rules: {max_rounds: 500}
variants:
  - name: planning
    seats: [planning, baseline, baseline, baseline]
    rotate: true
  - name: baseline
    seats: [baseline, baseline, baseline, baseline]
`

func (s *Server) labOff(w http.ResponseWriter, r *http.Request) bool {
	if s.o.Lab == nil {
		s.fail(w, r, http.StatusNotFound, "no_lab", "this server runs no experiments")
		return true
	}
	return false
}

// labForm is what the lab's forms hold: the examples, or what was typed
// into a form the lab refused, kept with why so that nothing typed is
// lost.
type labForm struct {
	Spec, Bots, Games, Rules string
	Error                    string
}

var labExamples = labForm{Spec: exampleSpec, Bots: "planning,baseline,baseline,baseline", Games: "400", Rules: "max_rounds: 500"}

func (s *Server) labPage(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	s.labPageWith(w, r, http.StatusOK, labExamples)
}

// labPageWith lists the runs and offers the forms filled with f.
func (s *Server) labPageWith(w http.ResponseWriter, r *http.Request, status int, f labForm) {
	runs, err := s.o.Lab.List()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, runs)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	s.pages.ExecuteTemplate(w, "lab.html", map[string]any{"CSRF": s.csrf, "Runs": runs, "Form": f})
}

// labRefused answers a form the lab refused: the problem to a script,
// the lab's page with the form as typed and why to a person.
func (s *Server) labRefused(w http.ResponseWriter, r *http.Request, code, msg string, f labForm) {
	if wantsJSON(r) {
		s.fail(w, r, http.StatusBadRequest, code, msg)
		return
	}
	f.Error = msg
	s.labPageWith(w, r, http.StatusBadRequest, f)
}

// labStart starts a run from the form's spec (text or uploaded file).
func (s *Server) labStart(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	if err := r.ParseMultipartForm(maxBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		s.fail(w, r, http.StatusBadRequest, "bad_form", err.Error())
		return
	}
	name, spec := "spec.yaml", []byte(r.FormValue("spec"))
	if f, h, err := r.FormFile("file"); err == nil {
		spec, err = io.ReadAll(io.LimitReader(f, maxBody))
		f.Close()
		if err != nil {
			s.fail(w, r, http.StatusBadRequest, "bad_form", err.Error())
			return
		}
		name = path.Base(h.Filename)
	}
	form := labExamples
	form.Spec = string(spec)
	if strings.TrimSpace(string(spec)) == "" {
		s.labRefused(w, r, "bad_spec", "an experiment spec is needed: YAML as gopoly experiment run reads it", form)
		return
	}
	s.labRunSpec(w, r, name, spec, "bad_spec", form)
}

// labRunSpec starts spec and answers with the run (its page, to a
// browser); a spec the lab refuses is bad input, answered with code and
// the form as typed.
func (s *Server) labRunSpec(w http.ResponseWriter, r *http.Request, name string, spec []byte, code string, form labForm) {
	st, err := s.o.Lab.Start(name, spec)
	if err != nil {
		s.labRefused(w, r, code, err.Error(), form)
		return
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, st)
		return
	}
	http.Redirect(w, r, "/lab/"+st.ID, http.StatusSeeOther)
}

// labTournament starts a tournament from the lab's form: bots (a
// comma-separated list, one per seat), games, and optional rules YAML. A
// tournament is an experiment of one variant whose seats rotate, so that
// every entrant holds every seat equally often; its page shows each
// one's win rate with its interval.
func (s *Server) labTournament(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	var bots []string
	for _, b := range strings.Split(r.FormValue("bots"), ",") {
		if b = strings.TrimSpace(b); b != "" {
			bots = append(bots, b)
		}
	}
	form := labExamples
	form.Bots, form.Games, form.Rules = r.FormValue("bots"), r.FormValue("games"), r.FormValue("rules")
	games, err := strconv.Atoi(strings.TrimSpace(r.FormValue("games")))
	switch {
	case len(bots) < 2 || len(bots) > monopoly.MaxPlayers:
		s.labRefused(w, r, "bad_tournament", fmt.Sprintf("bots: 2 to %d, comma-separated, one per seat", monopoly.MaxPlayers), form)
		return
	case err != nil || games < 1 || games > 1_000_000:
		s.labRefused(w, r, "bad_tournament", "games: a whole number from 1 to 1000000", form)
		return
	}
	seats, _ := json.Marshal(bots)
	spec := fmt.Sprintf("name: tournament\nseeds: {start: 1, count: %d, step: 1}\ndetail: summary\n", games)
	if rules := strings.TrimSpace(r.FormValue("rules")); rules != "" {
		spec += "rules:\n"
		for _, line := range strings.Split(rules, "\n") {
			spec += "  " + line + "\n"
		}
	}
	spec += fmt.Sprintf("variants:\n  - name: tournament\n    seats: %s\n    rotate: true\n", seats)
	s.labRunSpec(w, r, "tournament.yaml", []byte(spec), "bad_tournament", form)
}

// labError answers with what the lab said.
func (s *Server) labError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, lab.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, "not_found", "no experiment run "+r.PathValue("id"))
	case errors.Is(err, lab.ErrBusy):
		s.fail(w, r, http.StatusConflict, "busy", err.Error())
	case errors.Is(err, lab.ErrNoPlot):
		s.fail(w, r, http.StatusBadRequest, "no_plot", err.Error())
	default:
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
	}
}

// labRun is a run's page: its progress, results tables and plots.
func (s *Server) labRun(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	id := r.PathValue("id")
	st, err := s.o.Lab.Status(id)
	if err != nil {
		s.labError(w, r, err)
		return
	}
	sum, err := s.o.Lab.Summary(id)
	if err != nil {
		s.labError(w, r, err)
		return
	}
	spec, _ := s.o.Lab.Spec(id)
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, map[string]any{"status": st, "summary": sum})
		return
	}
	_, plotErr := s.o.Lab.Plot(id, "winrates.svg")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err = s.pages.ExecuteTemplate(w, "lab_run.html", map[string]any{"CSRF": s.csrf, "Status": st, "Summary": sum,
		"Spec": string(spec), "Plot": plotErr == nil, "Percent": percent(st.Done, st.Total)})
	if err != nil {
		s.o.Logger.Error("web: lab run", "err", err)
	}
}

func percent(done, total int) int {
	if total == 0 {
		return 0
	}
	return 100 * done / total
}

// labEvents streams a run's status as it changes, until it stops. The
// watch is registered before the status is first read, and each change
// reads the status again, so that the stream cannot miss the run's end:
// a change between the two is a wake-up, not a lost status.
func (s *Server) labEvents(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	id := r.PathValue("id")
	changed := make(chan struct{}, 1)
	stop := s.o.Lab.Watch(func(st lab.Status) {
		if st.ID == id {
			select {
			case changed <- struct{}{}:
			default: // one wake-up pending is enough: the status is read afresh
			}
		}
	})
	defer stop()
	st, err := s.o.Lab.Status(id)
	if err != nil {
		s.labError(w, r, err)
		return
	}
	flush, ok := w.(http.Flusher)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	send := func(st lab.Status) {
		data, _ := json.Marshal(st)
		fmt.Fprintf(w, "event: status\ndata: %s\n\n", data)
		flush.Flush()
	}
	send(st)
	for st.State == lab.StateRunning {
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-changed:
			if st, err = s.o.Lab.Status(id); err != nil {
				return
			}
			send(st)
		}
	}
}

func (s *Server) labPlot(w http.ResponseWriter, r *http.Request) {
	if s.labOff(w, r) {
		return
	}
	name := r.PathValue("name")
	data, err := s.o.Lab.Plot(r.PathValue("id"), name)
	if err != nil {
		s.labError(w, r, err)
		return
	}
	if strings.HasSuffix(name, ".svg") {
		w.Header().Set("Content-Type", "image/svg+xml")
	} else {
		w.Header().Set("Content-Type", "image/png")
	}
	w.Write(data)
}

func (s *Server) labCancel(w http.ResponseWriter, r *http.Request) {
	s.labAct(w, r, s.o.Lab.Cancel)
}

func (s *Server) labResume(w http.ResponseWriter, r *http.Request) {
	s.labAct(w, r, s.o.Lab.Resume)
}

func (s *Server) labAct(w http.ResponseWriter, r *http.Request, act func(string) (lab.Status, error)) {
	if s.labOff(w, r) {
		return
	}
	st, err := act(r.PathValue("id"))
	if err != nil {
		s.labError(w, r, err)
		return
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, st)
		return
	}
	http.Redirect(w, r, "/lab/"+st.ID, http.StatusSeeOther)
}
