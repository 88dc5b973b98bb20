package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

func init() { features = append(features, (*Server).addResourceRoutes) }

// MIME types of the resources.
const (
	mimeJSON     = "application/json"
	mimeSVG      = "image/svg+xml"
	mimeYAML     = "application/yaml"
	mimeMarkdown = "text/markdown"
	mimeText     = "text/plain"
	mimeJSONL    = "application/jsonl"
)

// route is a resource, or a template of resources, and its reader. The
// same routes serve resources/read and the read_resource tool.
type route struct {
	pattern string   // "game://sessions", "game://{id}/state"
	segs    []string // the scheme, then the rest by "/"
	read    readFunc
}

// readFunc reads one resource.
type readFunc func(ctx context.Context, rc *readCtx) (*content, error)

// readCtx is one read: the URI, its template's variables, and who reads.
type readCtx struct {
	uri   string
	vars  map[string]string
	ss    *mcp.ServerSession
	token string // a seat token given to read_resource
}

// content is a resource's contents.
type content struct {
	mime, text string
}

// jsonContent is v as a JSON resource.
func jsonContent(v any) (*content, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &content{mimeJSON, string(data)}, nil
}

// resource adds a resource (a pattern without variables) or a template,
// read by read.
func (s *Server) resource(pattern, name, mime, desc string, read readFunc) {
	scheme, rest, _ := strings.Cut(pattern, "://")
	s.routes = append(s.routes, route{pattern: pattern, segs: append([]string{scheme}, strings.Split(rest, "/")...), read: read})
	if strings.Contains(pattern, "{") {
		s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: pattern, Name: name, MIMEType: mime, Description: desc}, s.readResource)
		return
	}
	s.mcp.AddResource(&mcp.Resource{URI: pattern, Name: name, MIMEType: mime, Description: desc}, s.readResource)
}

// match finds the route of uri and its variables. Where two match, the
// one with a literal segment where the other has a variable, first from
// the left, wins: game://configs/state is a config, not a game.
func (s *Server) match(uri string) (*route, map[string]string) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok {
		return nil, nil
	}
	segs := append([]string{scheme}, strings.Split(rest, "/")...)
	var best *route
	var bestVars map[string]string
	for i := range s.routes {
		r := &s.routes[i]
		vars, ok := r.bind(segs)
		if ok && (best == nil || r.moreLiteral(best)) {
			best, bestVars = r, vars
		}
	}
	return best, bestVars
}

// bind matches segs against r, returning the variables.
func (r *route) bind(segs []string) (map[string]string, bool) {
	if len(segs) != len(r.segs) {
		return nil, false
	}
	var vars map[string]string
	for i, p := range r.segs {
		if name, ok := strings.CutPrefix(p, "{"); ok {
			if segs[i] == "" {
				return nil, false
			}
			if vars == nil {
				vars = map[string]string{}
			}
			vars[strings.TrimSuffix(name, "}")] = segs[i]
		} else if p != segs[i] {
			return nil, false
		}
	}
	return vars, true
}

// moreLiteral reports whether r has a literal segment where o has its
// first variable that r does not share.
func (r *route) moreLiteral(o *route) bool {
	for i := range r.segs {
		rv, ov := strings.HasPrefix(r.segs[i], "{"), strings.HasPrefix(o.segs[i], "{")
		if rv != ov {
			return ov
		}
	}
	return false
}

// seatNames are g's players' names by seat (Setup.Names takes a pointer).
func seatNames(g *session.Session) []string {
	setup := g.Setup()
	return setup.Names()
}

// errUnknownResource is a URI that names no resource.
var errUnknownResource = errors.New("unknown resource")

// read reads uri for ss (and a seat token, from read_resource).
func (s *Server) read(ctx context.Context, uri string, ss *mcp.ServerSession, token string) (*content, error) {
	r, vars := s.match(uri)
	if r == nil {
		s.stats.add(&s.stats.readErrors)
		return nil, fmt.Errorf("%w %q: "+knownResources, errUnknownResource, uri)
	}
	c, err := r.read(ctx, &readCtx{uri: uri, vars: vars, ss: ss, token: token})
	if err != nil {
		s.stats.add(&s.stats.readErrors)
		return nil, fmt.Errorf("%s: %w", uri, err)
	}
	s.stats.add(&s.stats.reads)
	return c, nil
}

// unknownResources answers resources/read of a URI no resource has with
// the server's own error. The SDK's (mcp.ResourceNotFoundError) quotes
// the URI in Go syntax into the error's JSON data, which is not JSON
// for some URIs, and an answer that does not encode ends the connection.
func (s *Server) unknownResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && method == "resources/read" {
			if r, _ := s.match(p.URI); r == nil {
				s.stats.add(&s.stats.readErrors)
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: capEchoes(fmt.Sprintf("mcpserver: %v %q: "+knownResources, errUnknownResource, p.URI))}
			}
		}
		return next(ctx, method, req)
	}
}

// knownResources says where to find the resources, for errors.
const knownResources = "game://sessions, game://configs and game://{id}/state are some; resources/list and resources/templates/list give all"

// readResource serves resources/read.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	c, err := s.read(ctx, uri, req.Session, "")
	if err != nil {
		// A resource that is not there is invalid params, as the
		// specification now has it (the SDK deprecates its own code).
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "mcpserver: " + s.clientError(err)}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: c.mime, Text: c.text}}}, nil
}

// gameResources are the resources of each game, by the segments after
// its id; those without further variables are notified when it changes.
var gameResources = []struct {
	path, name, mime, desc string
	read                   func(s *Server, ctx context.Context, rc *readCtx, g *session.Session) (*content, error)
}{
	{"state", "state", mimeJSON, "the board and the players, as a spectator sees them", (*Server).readState},
	{"board.svg", "board", mimeSVG, "the board drawn: streets in their colours, owners, houses, hotels, mortgages, tokens, jail", (*Server).readBoard},
	{"decision", "decision", mimeJSON, "the pending decision, who decides it and an example payload", (*Server).readDecision},
	{"legal-actions", "legal actions", mimeJSON, "the legal submit_decision payloads, in gopoly's and monopoly-mcp's forms, for the deciding seat (a seat token, or the connection that created the game)", (*Server).readLegal},
	{"replay-turns", "replay turns", mimeJSON, "the turn boundaries replay_game can fork at", (*Server).readTurns},
	{"history/summary", "history summary", mimeJSON, "the last 20 events, in sentences", (*Server).readHistory},
	{"history/stats", "history and statistics", mimeJSON, "the last 20 events and each player's statistics", (*Server).readHistory},
	{"history/full", "full history", mimeJSON, "every event of the game", (*Server).readHistory},
	{"history/{depth}/{limit}", "history", mimeJSON, "history at a depth (summary, stats or full) with the last limit events", (*Server).readHistory},
	{"activity-trace", "activity trace", mimeJSON, "the last 50 answers of the log: who answered what, and what they said", (*Server).readTrace},
	{"events/{since}", "events", mimeJSON, "the events from sequence number since on (at most 500), and the number to ask for next", (*Server).readEvents},
	{"transcript", "transcript", mimeText, "the table talk: what the players said", (*Server).readTranscript},
	{"export", "export", mimeJSON, "the whole game as gopoly export writes it (setup and log, players' thoughts included), for gopoly import; for the connection that created the game or with a seat token", (*Server).readExport},
}

// addResourceRoutes adds the shared and per-game resources and templates.
func (s *Server) addResourceRoutes() {
	s.resource("game://sessions", "sessions", mimeJSON, "the games in the store, newest first", s.readSessions)
	s.resource("game://active-decisions", "active decisions", mimeJSON, "the games waiting for an answer from a human or MCP seat", s.readActive)
	s.resource("game://monitoring", "monitoring", mimeJSON, "the server's counters", s.readMonitoring)
	for _, gr := range gameResources {
		read := gr.read
		s.resource("game://{id}/"+gr.path, gr.name, gr.mime, gr.desc, func(ctx context.Context, rc *readCtx) (*content, error) {
			g, err := s.open(ctx, rc.vars["id"])
			if err != nil {
				return nil, err
			}
			return read(s, ctx, rc, g)
		})
	}
}

// listed are the resources of a game listed by resources/list (the
// rest are reached by their templates).
var listed = []string{"state", "board.svg"}

// listGame lists a game's main resources, which tells the
// clients that the list changed.
func (s *Server) listGame(id string) {
	for _, path := range listed {
		for _, gr := range gameResources {
			if gr.path == path {
				s.mcp.AddResource(&mcp.Resource{URI: "game://" + id + "/" + path, Name: id + " " + gr.name, MIMEType: gr.mime, Description: gr.desc}, s.readResource)
			}
		}
	}
}

// unlistGame takes a deleted game off the list.
func (s *Server) unlistGame(id string) {
	uris := make([]string, len(listed))
	for i, path := range listed {
		uris[i] = "game://" + id + "/" + path
	}
	s.mcp.RemoveResources(uris...)
}

// listStored lists the stored games and configs among the resources.
func (s *Server) listStored(ctx context.Context) error {
	recs, err := s.m.List(ctx)
	if err != nil {
		return err
	}
	for _, r := range recs {
		s.listGame(r.ID)
	}
	cs, err := s.m.Configs(ctx)
	if err != nil {
		return err
	}
	for _, c := range cs {
		s.listConfig(c.ID)
	}
	return nil
}

// sessionOut is a stored game, as game://sessions lists it.
type sessionOut struct {
	GameID string `json:"game_id"`
	table.Listed
	Status  string `json:"status"`
	Summary string `json:"summary"`
	URI     string `json:"uri"`
}

// sessions lists the stored games, keeping those keep accepts.
func (s *Server) sessions(ctx context.Context, keep func(session.Status) bool) ([]sessionOut, error) {
	list, err := table.List(ctx, s.m, true, keep)
	if err != nil {
		return nil, err
	}
	out := []sessionOut{}
	for _, r := range list {
		st := r.Status
		status := statusReady
		switch {
		case st.Over:
			status = statusCompleted
		case st.Waiting >= 0:
			status = statusAwaiting
		}
		out = append(out, sessionOut{GameID: r.ID, Listed: r, Status: status, Summary: st.Summary, URI: "game://" + r.ID + "/state"})
	}
	return out, nil
}

func (s *Server) readSessions(ctx context.Context, _ *readCtx) (*content, error) {
	list, err := s.sessions(ctx, func(session.Status) bool { return true })
	if err != nil {
		return nil, err
	}
	return jsonContent(map[string]any{"sessions": list, "store": s.opt.Store})
}

func (s *Server) readActive(ctx context.Context, _ *readCtx) (*content, error) {
	list, err := s.sessions(ctx, func(st session.Status) bool { return !st.Over && st.Waiting >= 0 })
	if err != nil {
		return nil, err
	}
	return jsonContent(map[string]any{"active": list})
}

func (s *Server) readMonitoring(context.Context, *readCtx) (*content, error) {
	tools, reads, readErrors, notes, subs := s.stats.snapshot()
	return jsonContent(map[string]any{
		"server": "gopoly", "version": s.opt.Version, "store": s.opt.Store,
		"started": s.started.UTC(), "uptime_seconds": int64(time.Since(s.started).Seconds()),
		"tools": tools, "resource_reads": reads, "resource_errors": readErrors,
		"notifications": notes, "subscriptions": subs, "games_watched": s.watch.count(),
		"protocol_versions": mcp.SupportedProtocolVersions(),
	})
}

// stateOut is game://{id}/state: the public position and where the game
// stands.
type stateOut struct {
	GameID  string         `json:"game_id"`
	Status  string         `json:"status"`
	Summary string         `json:"summary"`
	Seats   []session.Seat `json:"seats"`
	View    wire.Snapshot  `json:"view"`
	Board   string         `json:"board"`
}

func (s *Server) readState(_ context.Context, _ *readCtx, g *session.Session) (*content, error) {
	p, err := g.Pending("")
	if err != nil {
		return nil, err
	}
	pr, err := s.progressOf(g, 0, "", nil)
	if err != nil {
		return nil, err
	}
	return jsonContent(stateOut{GameID: g.ID(), Status: pr.Status, Summary: pr.Summary, Seats: g.Setup().Seats, View: p.View, Board: render.Text(p.View)})
}

func (s *Server) readBoard(_ context.Context, _ *readCtx, g *session.Session) (*content, error) {
	p, err := g.Pending("")
	if err != nil {
		return nil, err
	}
	return &content{mimeSVG, render.SVG(p.View)}, nil
}

func (s *Server) readDecision(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	p, err := s.pendingFor(g, rc.token, rc.ss)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"game_id": g.ID(), "entries": p.Entries, "over": p.Over, "your_turn": p.YourTurn,
		"decision": p.Decision, "question": render.DecisionIn(p.View, names(p.View))}
	if legal := legalPayloads(&p); len(legal) > 0 {
		out["example"] = legal[0]
	}
	return jsonContent(out)
}

func (s *Server) readLegal(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	p, err := s.pendingFor(g, rc.token, rc.ss)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"game_id": g.ID(), "entries": p.Entries, "over": p.Over, "your_turn": p.YourTurn,
		"decision": p.Decision, "question": render.DecisionIn(p.View, names(p.View)), "legal": legalPayloads(&p)}
	switch {
	case p.Over:
		out["note"] = "the game is over"
	case !p.YourTurn && p.Decision.Player >= 0:
		out["note"] = fmt.Sprintf("%s decides: its legal payloads are shown to that seat (read_resource with its token, or the connection that created the game)",
			p.View.Players[p.Decision.Player].Name)
	}
	if p.Options != nil {
		if p.Options.Bid != nil {
			out["bid"] = p.Options.Bid
		}
		if p.Options.Accept != nil {
			out["accept"] = p.Options.Accept
		}
		if p.Options.Trade != nil {
			out["trade"] = p.Options.Trade
			out["trade_forms"] = map[string]string{
				"gopoly":       `{"kind":"` + p.Options.Trade.Kind.String() + `","offer":{"to":SEAT,"give":{"squares":[...],"cash":N},"get":{"squares":[...],"cash":N}}}`,
				"monopoly-mcp": `{"kind":"proposeTrade","to":SEAT,"buyerGives":{"cash":N,"propertyLocations":[...]},"sellerGives":{"cash":N,"propertyLocations":[...]}} (counterTrade without "to")`,
			}
		}
	}
	return jsonContent(out)
}

// turnOut is a turn boundary replay_game can fork at.
type turnOut struct {
	session.Turn
	Name string `json:"name"`
}

func (s *Server) readTurns(_ context.Context, _ *readCtx, g *session.Session) (*content, error) {
	names := seatNames(g)
	turns := []turnOut{}
	for _, t := range g.Turns() {
		turns = append(turns, turnOut{t, names[t.Player]})
	}
	return jsonContent(map[string]any{"game_id": g.ID(), "turns": turns,
		"note": "replay_game(game_id, turn) forks a new game at the start of that turn; turn 0 is the start of the game"})
}

// Depths of history.
const (
	depthSummary = "summary"
	depthStats   = "stats"
	depthFull    = "full"
)

// historyLine is an event in a sentence.
type historyLine struct {
	Seq   int    `json:"seq"`
	Round int    `json:"round"`
	Text  string `json:"text"`
}

func (s *Server) readHistory(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	depth, limit := rc.vars["depth"], 20
	if depth == "" {
		depth = strings.TrimPrefix(rc.uri[strings.LastIndex(rc.uri, "/history/"):], "/history/")
	}
	if l, ok := rc.vars["limit"]; ok {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("limit %q: want a whole number of events, 1 or more", l)
		}
		limit = n
	}
	switch depth {
	case depthSummary, depthStats:
	case depthFull:
		if _, ok := rc.vars["limit"]; !ok {
			limit = 0
		}
	default:
		return nil, fmt.Errorf("depth %q: want summary, stats or full", depth)
	}
	evs, next, err := g.History("", 0, 0)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"game_id": g.ID(), "depth": depth, "total": next}
	from := 0
	if limit > 0 && len(evs) > limit {
		from = len(evs) - limit
	}
	if depth == depthFull {
		full := make([]wire.Event, 0, len(evs)-from)
		for _, e := range evs[from:] {
			full = append(full, e.Event)
		}
		out["events"] = full
	} else {
		out["events"] = sentences(g, evs, from)
	}
	if depth == depthStats {
		out["players"] = playerStats(g, evs)
	}
	return jsonContent(out)
}

// sentences describes evs[from:] for people, each with its round (the
// rounds are counted from the start).
func sentences(g *session.Session, evs []session.Event, from int) []historyLine {
	names := seatNames(g)
	out := make([]historyLine, 0, len(evs)-from)
	round := 0
	for i, e := range evs {
		if e.Engine.Kind == monopoly.EvTurnStart {
			round = int(e.Engine.Amount)
		}
		if i < from {
			continue
		}
		if text := g.Rules().Describe(e.Engine, names); text != "" {
			out = append(out, historyLine{Seq: e.Event.Seq, Round: round, Text: text})
		}
	}
	return out
}

// statsOut is one player's statistics, counted from the events.
type statsOut struct {
	Seat          int    `json:"seat"`
	Name          string `json:"name"`
	Cash          int    `json:"cash"`
	NetWorth      int    `json:"net_worth"`
	Properties    int    `json:"properties"`
	Bankrupt      bool   `json:"bankrupt"`
	Bought        int    `json:"bought"`
	AuctionsWon   int    `json:"auctions_won"`
	RentPaid      int64  `json:"rent_paid"`
	RentReceived  int64  `json:"rent_received"`
	Built         int    `json:"built"`
	Mortgaged     int    `json:"mortgaged"`
	TradesDone    int    `json:"trades_done"`
	TimesJailed   int    `json:"times_jailed"`
	SalaryCollect int    `json:"salaries"`
	Rolls         int    `json:"rolls"`
}

// playerStats counts what each player did in evs, and where each stands.
func playerStats(g *session.Session, evs []session.Event) []statsOut {
	p, _ := g.Pending("")
	out := make([]statsOut, len(p.View.Players))
	for i, pl := range p.View.Players {
		out[i] = statsOut{Seat: i, Name: pl.Name, Cash: pl.Cash, NetWorth: pl.NetWorth, Properties: len(pl.Properties), Bankrupt: pl.Bankrupt}
	}
	at := func(seat int) *statsOut {
		if seat >= 0 && seat < len(out) {
			return &out[seat]
		}
		return &statsOut{}
	}
	for _, e := range evs {
		ev := e.Engine
		p := at(int(ev.Player))
		switch ev.Kind {
		case monopoly.EvBuy:
			p.Bought++
		case monopoly.EvAuctionWon:
			p.AuctionsWon++
		case monopoly.EvRent:
			p.RentPaid += ev.Amount
			at(int(ev.Other)).RentReceived += ev.Amount
		case monopoly.EvBuild:
			p.Built++
		case monopoly.EvMortgage:
			p.Mortgaged++
		case monopoly.EvTradeAccepted:
			p.TradesDone++
			at(int(ev.Other)).TradesDone++
		case monopoly.EvGoToJail:
			p.TimesJailed++
		case monopoly.EvSalary:
			p.SalaryCollect++
		case monopoly.EvRoll:
			p.Rolls++
		}
	}
	return out
}

// traceEntry is one answer of the log.
type traceEntry struct {
	Entry   int             `json:"entry"`
	Seat    int             `json:"seat"`
	Name    string          `json:"name"`
	By      string          `json:"by"`
	Action  json.RawMessage `json:"action"`
	Speech  string          `json:"speech,omitempty"`
	Thought string          `json:"thought,omitempty"`
	At      time.Time       `json:"at"`
}

func (s *Server) readTrace(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	const recent = 50
	n := g.Status().Entries
	from := max(0, n-recent)
	log, err := g.Log(s.tokenFor(rc.ss, g, rc.token, -1), from)
	if err != nil {
		return nil, err
	}
	names := seatNames(g)
	out := make([]traceEntry, len(log))
	for i, e := range log {
		out[i] = traceEntry{Entry: from + i, Seat: e.Seat, Name: names[e.Seat], By: e.By, Action: e.Action, Speech: e.Speech, Thought: e.Thought, At: e.At}
	}
	return jsonContent(map[string]any{"game_id": g.ID(), "entries": n, "trace": out})
}

func (s *Server) readEvents(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	since, err := strconv.Atoi(rc.vars["since"])
	if err != nil || since < 0 {
		return nil, fmt.Errorf("since %q: want a sequence number, 0 or more", rc.vars["since"])
	}
	const page = 500
	evs, next, err := g.History("", since, page)
	if err != nil {
		return nil, err
	}
	list := make([]wire.Event, len(evs))
	for i, e := range evs {
		list[i] = e.Event
	}
	return jsonContent(map[string]any{"game_id": g.ID(), "since": since, "next": next, "events": list})
}

func (s *Server) readTranscript(_ context.Context, _ *readCtx, g *session.Session) (*content, error) {
	evs, _, err := g.History("", 0, 0)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	names := seatNames(g)
	round := 0
	for _, e := range evs {
		switch ev := e.Engine; {
		case ev.Kind == monopoly.EvTurnStart:
			round = int(ev.Amount)
		case ev.Kind == monopoly.EvSpeech && ev.Speech != "" && int(ev.Player) < len(names) && ev.Player >= 0:
			fmt.Fprintf(&b, "[round %d] %s: %s\n", round, names[ev.Player], ev.Speech)
		}
	}
	if b.Len() == 0 {
		b.WriteString("(nothing has been said at the table yet)\n")
	}
	return &content{mimeText, b.String()}, nil
}

func (s *Server) readExport(_ context.Context, rc *readCtx, g *session.Session) (*content, error) {
	// The export holds every player's thoughts and sealed limits: it is
	// for the game's creator alone.
	if !s.owns(rc.ss, g, rc.token) {
		return nil, fmt.Errorf("%s: the export holds every player's thoughts: it is read by the connection that created the game, or with its research_token (read_resource's token)", rc.uri)
	}
	data, err := g.Export()
	if err != nil {
		return nil, err
	}
	return &content{mimeJSON, string(data)}, nil
}
