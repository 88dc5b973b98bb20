// Package web is gopoly's browser front end (gopoly serve): a lobby of
// games, a game page that draws the board (render.SVG), streams
// the events live over server-sent events, paces games of bots, lets a
// person answer from the legal options the server sends, scrubs back
// through a game and forks it. It speaks only the session API and the
// wire format; it holds no rule and checks no legality itself.
package web

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a Server.
type Options struct {
	Sessions *session.Manager // must have Research enabled for research views
	Lab      *lab.Manager     // experiments; nil: no lab pages
	DealDir  string           // Monopoly Deal: game records, and trained policies in policies/; "": none kept
	Logger   *slog.Logger     // nil: slog.Default()
	// Hosts are the Host names served besides the server's own address
	// (--allowed-hosts); a request for any other is refused before
	// anything is served.
	Hosts hostcheck.Hosts
}

// Server serves the pages, the streams and the answers of one session
// manager. It is an http.Handler.
type Server struct {
	o      Options
	mux    *http.ServeMux
	routes http.Handler // mux, behind the Host check
	pages  *template.Template
	csrf   string // the anti-forgery token every state-changing request carries
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	drivers  *table.Drivers       // the pacing of games of bots
	watchers *table.Watchers      // one watch per game, for every feed of it
	deals    map[string]*dealGame // at most maxDeals
	maxDeals int
	feeds    map[feedKey]*feed
	oddsOf   *table.Odds // the chances to win, shared by every viewer
	wg       sync.WaitGroup
}

// decodeBody reads a request's JSON body of at most limit bytes into v,
// refusing keys v does not have: a typo is an error, not a request that
// does nothing.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	d := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// New returns a server of o.Sessions.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{o: o, mux: http.NewServeMux(), ctx: ctx, cancel: cancel, drivers: table.NewDrivers(o.Logger), watchers: table.NewWatchers(), deals: map[string]*dealGame{}, maxDeals: maxDealGames, feeds: map[feedKey]*feed{}, oddsOf: table.NewOdds(maxOddsGames, o.Sessions.Lookup)}
	// The key is the store's, the same in every process serving it, so
	// that a page from one is accepted by another behind a load balancer.
	key, err := o.Sessions.Secret(ctx, "web csrf")
	if err != nil {
		o.Logger.Warn("web: no shared anti-forgery key: this process's own", "err", err)
		key = make([]byte, 32)
		rand.Read(key)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("gopoly csrf"))
	s.csrf = hex.EncodeToString(mac.Sum(nil))
	s.pages = template.Must(template.New("").Funcs(template.FuncMap{
		"mul100": func(x float64) float64 { return 100 * x },
		"seat":   seatLabel,
		"plus1":  func(i int) int { return i + 1 },
		"json": func(v any) (template.JS, error) {
			b, err := json.Marshal(v)
			return template.JS(b), err
		},
	}).ParseFS(templateFS, "templates/*.html"))
	static, _ := fs.Sub(staticFS, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.lobby)
	s.mux.HandleFunc("POST /games", s.guard(s.createGame))
	s.mux.HandleFunc("GET /games/{id}", s.gamePage)
	s.mux.HandleFunc("GET /games/{id}/board.svg", s.board)
	s.mux.HandleFunc("GET /games/{id}/state", s.state)
	s.mux.HandleFunc("GET /games/{id}/past", s.past)
	s.mux.HandleFunc("GET /games/{id}/events", s.events)
	s.mux.HandleFunc("GET /games/{id}/odds", s.odds)
	s.mux.HandleFunc("POST /games/{id}/answer", s.guard(s.answer))
	s.mux.HandleFunc("POST /games/{id}/pace", s.guard(s.pace))
	s.mux.HandleFunc("POST /games/{id}/fork", s.guard(s.fork))
	s.mux.HandleFunc("POST /games/{id}/delete", s.guard(s.deleteGame))
	s.labRoutes()
	s.dealRoutes()
	s.routes = o.Hosts.Handler(s.mux)
	return s
}

// ServeHTTP implements http.Handler, with the headers every response
// carries: no framing by other sites, no sniffing, scripts from this
// server only. A request for a Host that is not this server's is
// refused before any page or action (DNS rebinding).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer") // seat tokens travel in links
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	s.routes.ServeHTTP(w, r)
}

// Close stops the pacers and the streams, and waits for them.
func (s *Server) Close() {
	s.cancel()
	s.drivers.Close()
	s.wg.Wait()
	s.watchers.Close()
}

// guard refuses a state-changing request that does not carry the
// anti-forgery token (a form field or the X-Gopoly-CSRF header) or that
// comes from another origin: a page of another site cannot read the
// token, so it cannot make a player's browser act.
func (s *Server) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && o != "null" {
			u, err := url.Parse(o)
			if err != nil || u.Host != r.Host {
				s.fail(w, r, http.StatusForbidden, "forbidden_origin", "a request from another site ("+o+") cannot change a game")
				return
			}
		}
		tok := r.Header.Get("X-Gopoly-CSRF")
		if tok == "" {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
			tok = r.FormValue("csrf")
		}
		if !hmac.Equal([]byte(tok), []byte(s.csrf)) {
			s.fail(w, r, http.StatusForbidden, "csrf", "the request lacks this server's anti-forgery token: reload the page and try again")
			return
		}
		h(w, r)
	}
}

// maxOddsGames bounds the games whose latest chances to win are kept.
const maxOddsGames = 256

// maxBody bounds a request body: the largest is an uploaded rules file.
const maxBody = 1 << 20

// problem is the JSON body of an error: a stable code and a sentence.
type problem struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Refusal *wire.Refusal  `json:"refusal,omitempty"`
	Options *wire.Options  `json:"options,omitempty"`
	Extra   map[string]any `json:"extra,omitempty"`
}

// fail answers with an error: JSON to scripts, a page to a browser.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	s.failWith(w, r, status, problem{Code: code, Message: msg})
}

func (s *Server) failWith(w http.ResponseWriter, r *http.Request, status int, p problem) {
	if p.Refusal == nil { // a refusal's message is worded already
		p.Message = render.Plain(p.Message)
	}
	if wantsJSON(r) {
		writeJSON(w, status, p)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	s.pages.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Problem": p})
}

// wantsJSON reports whether the request comes from the page's scripts
// rather than a form or a link.
func wantsJSON(r *http.Request) bool {
	return r.Header.Get("X-Gopoly-CSRF") != "" || strings.Contains(r.Header.Get("Accept"), "application/json")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// open opens the session of the request's {id}, answering 404 itself
// when there is none.
func (s *Server) open(w http.ResponseWriter, r *http.Request) (*session.Session, bool) {
	sess, err := s.o.Sessions.Open(r.Context(), r.PathValue("id"))
	if err != nil {
		s.sessionError(w, r, err)
		return nil, false
	}
	return sess, true
}

// openFor opens the session of the request's {id} for a caller whose
// token may (a seat's, the research view's...) steer it as the request
// asks; otherwise it answers 403 with why, and the game is not touched.
func (s *Server) openFor(w http.ResponseWriter, r *http.Request, may func(*session.Session, string) bool, why string) (*session.Session, bool) {
	sess, ok := s.open(w, r)
	if ok && !may(sess, token(r)) {
		s.fail(w, r, http.StatusForbidden, session.CodeBadToken, why)
		return nil, false
	}
	return sess, ok
}

// sessionError answers with what the table service said: the one place
// the browser maps table.Code to an HTTP status.
func (s *Server) sessionError(w http.ResponseWriter, r *http.Request, err error) {
	e := table.Classify(err)
	switch e.Code {
	case table.CodeNotFound:
		s.fail(w, r, http.StatusNotFound, "not_found", "no game "+r.PathValue("id"))
	case table.CodeBadSetup:
		s.fail(w, r, http.StatusBadRequest, "bad_game", err.Error())
	case table.CodeBadInput:
		s.fail(w, r, http.StatusBadRequest, cmp.Or(e.Reason, "bad_request"), err.Error())
	case table.CodeConflict:
		s.fail(w, r, http.StatusConflict, e.Name(), err.Error())
	case table.CodeForbidden, table.CodeRefused:
		status := http.StatusUnprocessableEntity
		if e.Code == table.CodeForbidden {
			status = http.StatusForbidden
		}
		if e.Refusal == nil {
			s.fail(w, r, status, e.Name(), err.Error())
			return
		}
		ref := &e.Refusal.Refusal
		s.failWith(w, r, status, problem{Code: ref.Code, Message: ref.Message, Refusal: ref})
	default:
		s.o.Logger.Error("web: session", "id", r.PathValue("id"), "err", err)
		s.fail(w, r, http.StatusInternalServerError, "internal", err.Error())
	}
}

// token is the request's seat or research token: the query's token, or
// the X-Gopoly-Token header scripts send.
func token(r *http.Request) string {
	if t := r.Header.Get("X-Gopoly-Token"); t != "" {
		return t
	}
	return r.URL.Query().Get("token")
}

// viewToken is the token a request views a game with: its own, or, for a
// spectator of a game whose creator opened the research view to
// spectators, the research token.
func viewToken(r *http.Request, sess *session.Session) string {
	if t := token(r); t != "" || !sess.Setup().Research {
		return t
	}
	return sess.Tokens().Research
}
