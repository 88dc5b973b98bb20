package arena

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/stats"
)

// ExperimentSummary is summary.json: every variant's summary.
type ExperimentSummary struct {
	Experiment string           `json:"experiment"`
	Detail     string           `json:"detail"`
	Seeds      SeedRange        `json:"seeds"`
	Variants   []VariantSummary `json:"variants"`
	// Results identifies the results.jsonl the summary was made from, so
	// that a reader can tell whether it still sums up that file.
	Results *ResultsDigest `json:"results,omitempty"`
}

// ResultsDigest identifies the contents of a results file.
type ResultsDigest struct {
	Lines  int    `json:"lines"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// digester makes the ResultsDigest of lines, in file order.
type digester struct {
	h     hash.Hash
	lines int
	bytes int64
}

func (d *digester) add(line []byte) {
	if d.h == nil {
		d.h = sha256.New()
	}
	d.h.Write(line)
	d.lines++
	d.bytes += int64(len(line))
}

func (d *digester) digest() *ResultsDigest {
	if d.h == nil {
		d.h = sha256.New()
	}
	return &ResultsDigest{Lines: d.lines, Bytes: d.bytes, SHA256: hex.EncodeToString(d.h.Sum(nil))}
}

// VariantSummary sums up a variant's games: variants/NAME/summary.json.
type VariantSummary struct {
	Name   string `json:"name"`
	Games  int    `json:"games"`
	Rotate bool   `json:"rotate"`
	Endings
	// Rounds is the distribution of game length in rounds.
	Rounds        Distribution  `json:"rounds"`
	RollsMean     float64       `json:"rolls_mean"`
	DecisionsMean float64       `json:"decisions_mean"`
	Seats         []SeatSummary `json:"seats"`
}

// Distribution describes a sample: mean with its 95% confidence
// half-width, and quantiles.
type Distribution struct {
	Mean   float64 `json:"mean"`
	CI95   float64 `json:"ci95_half_width"`
	Min    float64 `json:"min"`
	P10    float64 `json:"p10"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P90    float64 `json:"p90"`
	Max    float64 `json:"max"`
}

// SeatSummary is one seat of a variant over its games (a seat is an
// entry of the variant's seats, wherever rotation sat it).
type SeatSummary struct {
	Seat    int            `json:"seat"`
	Bot     string         `json:"bot"`
	Params  map[string]any `json:"params,omitempty"` // its overrides as written
	Wins    int            `json:"wins"`
	WinRate float64        `json:"win_rate"`
	CI95    [2]float64     `json:"ci95"` // Wilson 95% interval of the win rate
	// Measures are the player's own measures (agent.Measurer: an LLM
	// seat's calls, fallbacks, tokens, cost), per-game means over the
	// games that measured them, with cost_per_win (its total cost over
	// its wins) when it has a cost.
	Measures map[string]float64 `json:"measures,omitempty"`
	// Faults are what a program's fallback did in its place; absent
	// for bots.
	Faults
	// Behaviour is absent at detail summary, which records none.
	*Behaviour
}

// Behaviour is a seat's behaviour metrics, per-game means over a
// variant's games unless noted.
type Behaviour struct {
	MeanCash     float64    `json:"mean_cash"` // mean over games of SeatMetrics.MeanCash
	MeanCashCI95 [2]float64 `json:"mean_cash_ci95"`
	// MinCash is the mean over games of the game's minimum cash.
	MinCash                    float64 `json:"min_cash"`
	PropertiesBought           float64 `json:"properties_bought"`
	AuctionBids                float64 `json:"auction_bids"`
	AuctionsWon                float64 `json:"auctions_won"`
	TradesProposed             float64 `json:"trades_proposed"`
	TradesAccepted             float64 `json:"trades_accepted"`
	TradesReceived             float64 `json:"trades_received"`
	TradesAcceptedWhenReceived float64 `json:"trades_accepted_when_received"`
	// AcceptRate is the share of the proposals it received that it
	// accepted, over all games (0 when it received none).
	AcceptRate            float64 `json:"accept_rate"`
	CounterOffers         float64 `json:"counter_offers"`
	CounterOffersAccepted float64 `json:"counter_offers_accepted"`
	HousesBuilt           float64 `json:"houses_built"`
	HotelsBuilt           float64 `json:"hotels_built"`
	BuildingsSold         float64 `json:"buildings_sold"`
	// FirstBuildRoundMean is the mean round of its first building over
	// the games in which it built (GamesBuilt); null if it never built.
	FirstBuildRoundMean *float64   `json:"first_build_round_mean"`
	GamesBuilt          int        `json:"games_built"`
	JailTurnsServed     float64    `json:"jail_turns_served"`
	JailFinesPaid       float64    `json:"jail_fines_paid"`
	JailCardsUsed       float64    `json:"jail_cards_used"`
	Mortgages           float64    `json:"mortgages"`
	Unmortgages         float64    `json:"unmortgages"`
	RentPaid            float64    `json:"rent_paid"`
	RentReceived        float64    `json:"rent_received"`
	Bankruptcies        float64    `json:"bankruptcies"` // per game: the share of games it went bankrupt in
	NetWorthMean        float64    `json:"net_worth_mean"`
	NetWorthCI95        [2]float64 `json:"net_worth_ci95"`
}

// running is a mean and variance kept by Welford's method.
type running struct {
	n       int
	mean, m float64
}

func (r *running) add(x float64) {
	r.n++
	d := x - r.mean
	r.mean += d / float64(r.n)
	r.m += d * (x - r.mean)
}

// ci95 is the normal 95% interval of the mean.
func (r *running) ci95() [2]float64 {
	if r.n < 2 {
		return [2]float64{r.mean, r.mean}
	}
	h := stats.Z95 * math.Sqrt(r.m/float64(r.n-1)/float64(r.n))
	return [2]float64{r.mean - h, r.mean + h}
}

// seatAcc sums one seat's games.
type seatAcc struct {
	wins        int
	faults      Faults
	measures    map[string]float64 // sums of the players' own measures
	measured    int                // games that measured them
	cash, worth running
	sum         [nSums]float64
	firstBuild  float64
	built       int
}

// Indices into seatAcc.sum, in SeatMetrics order.
const (
	sMinCash = iota
	sBought
	sBids
	sWon
	sProposed
	sAccepted
	sReceived
	sAcceptedRecv
	sHouses
	sHotels
	sSold
	sServed
	sFines
	sCards
	sMortgages
	sUnmortgages
	sRentPaid
	sRentRecv
	sBankrupt
	sCounters
	sCountersAccepted
	nSums
)

// variantAcc sums one variant's games as they are counted, keeping
// sums and counts, not the games, so that its memory does not grow with
// their number.
type variantAcc struct {
	games            int
	endings          Endings
	rounds           lengths
	rolls, decisions float64
	metrics          bool
	seats            []seatAcc
}

func (a *variantAcc) add(rec *GameRecord) error {
	a.games++
	a.rounds.add(rec.Rounds)
	a.rolls += float64(rec.Rolls)
	a.decisions += float64(rec.Decisions)
	a.endings.Add(rec.Capped, rec.Stalled, rec.Winner)
	if rec.Winner >= 0 && rec.Winner < len(a.seats) {
		a.seats[rec.Winner].wins++
	}
	if len(rec.Players) != len(a.seats) {
		return fmt.Errorf("%d players where the variant seats %d", len(rec.Players), len(a.seats))
	}
	for _, p := range rec.Players {
		if p.Seat < 0 || p.Seat >= len(a.seats) {
			return fmt.Errorf("seat %d out of range", p.Seat)
		}
		f := &a.seats[p.Seat].faults
		f.Fallbacks += p.Fallbacks
		if p.Retired {
			f.Retirements++
			if rec.Winner == p.Seat {
				f.WinsWhileRetired++
			}
		}
		if p.Measures != nil {
			s := &a.seats[p.Seat]
			if s.measures == nil {
				s.measures = map[string]float64{}
			}
			for k, v := range p.Measures {
				s.measures[k] += v
			}
			s.measured++
		}
		m := p.SeatMetrics
		if m == nil {
			if a.metrics {
				return fmt.Errorf("seat %d without metrics", p.Seat)
			}
			continue
		}
		s := &a.seats[p.Seat]
		s.cash.add(m.MeanCash)
		s.worth.add(float64(m.NetWorth))
		for i, x := range [...]float64{float64(m.MinCash), float64(m.PropertiesBought), float64(m.AuctionBids),
			float64(m.AuctionsWon), float64(m.TradesProposed), float64(m.TradesAccepted), float64(m.TradesReceived),
			float64(m.TradesAcceptedWhenReceived), float64(m.HousesBuilt), float64(m.HotelsBuilt), float64(m.BuildingsSold),
			float64(m.JailTurnsServed), float64(m.JailFinesPaid), float64(m.JailCardsUsed), float64(m.Mortgages),
			float64(m.Unmortgages), float64(m.RentPaid), float64(m.RentReceived), float64(m.Bankrupt),
			float64(m.CounterOffers), float64(m.CounterOffersAccepted)} {
			s.sum[i] += x
		}
		if m.FirstBuildRound > 0 {
			s.built++
			s.firstBuild += float64(m.FirstBuildRound)
		}
	}
	return nil
}

func (a *variantAcc) result(v *Variant) VariantSummary {
	s := VariantSummary{Name: v.Name, Games: a.games, Rotate: v.Rotate, Endings: a.endings,
		Rounds: a.rounds.distribution()}
	per := func(x float64) float64 {
		if a.games == 0 {
			return 0
		}
		return x / float64(a.games)
	}
	s.RollsMean, s.DecisionsMean = per(a.rolls), per(a.decisions)
	for i := range a.seats {
		acc := &a.seats[i]
		lo, hi := stats.Wilson(float64(acc.wins), a.games)
		ss := SeatSummary{Seat: i, Bot: v.Seats[i].Bot, Params: v.params[i], Wins: acc.wins, WinRate: per(float64(acc.wins)), CI95: [2]float64{lo, hi},
			Faults: acc.faults}
		if acc.measured > 0 {
			ss.Measures = meanMeasures(acc.measures, acc.measured, float64(acc.wins))
		}
		if a.metrics {
			b := &Behaviour{
				MeanCash: acc.cash.mean, MeanCashCI95: acc.cash.ci95(), MinCash: per(acc.sum[sMinCash]),
				PropertiesBought: per(acc.sum[sBought]), AuctionBids: per(acc.sum[sBids]), AuctionsWon: per(acc.sum[sWon]),
				TradesProposed: per(acc.sum[sProposed]), TradesAccepted: per(acc.sum[sAccepted]),
				TradesReceived: per(acc.sum[sReceived]), TradesAcceptedWhenReceived: per(acc.sum[sAcceptedRecv]),
				CounterOffers: per(acc.sum[sCounters]), CounterOffersAccepted: per(acc.sum[sCountersAccepted]),
				HousesBuilt: per(acc.sum[sHouses]), HotelsBuilt: per(acc.sum[sHotels]), BuildingsSold: per(acc.sum[sSold]),
				GamesBuilt: acc.built, JailTurnsServed: per(acc.sum[sServed]), JailFinesPaid: per(acc.sum[sFines]),
				JailCardsUsed: per(acc.sum[sCards]), Mortgages: per(acc.sum[sMortgages]), Unmortgages: per(acc.sum[sUnmortgages]),
				RentPaid: per(acc.sum[sRentPaid]), RentReceived: per(acc.sum[sRentRecv]), Bankruptcies: per(acc.sum[sBankrupt]),
				NetWorthMean: acc.worth.mean, NetWorthCI95: acc.worth.ci95(),
			}
			if acc.sum[sReceived] > 0 {
				b.AcceptRate = acc.sum[sAcceptedRecv] / acc.sum[sReceived]
			}
			if acc.built > 0 {
				fb := acc.firstBuild / float64(acc.built)
				b.FirstBuildRoundMean = &fb
			}
			ss.Behaviour = b
		}
		s.Seats = append(s.Seats, ss)
	}
	return s
}

// summaryAcc sums up an experiment's games, given in game order. A run
// feeds it the records it finds and those it plays; a merge and show
// feed it the results file. The records are the same either way (JSON
// writes numbers so that they read back exactly), so all write the same
// bytes for the same games.
type summaryAcc struct {
	e     *Experiment
	accs  []variantAcc
	index map[string]int
	lines digester
}

func newSummaryAcc(e *Experiment) *summaryAcc {
	a := &summaryAcc{e: e, accs: make([]variantAcc, len(e.Variants)), index: map[string]int{}}
	for v := range e.Variants {
		a.accs[v] = variantAcc{metrics: e.Detail >= DetailStats, seats: make([]seatAcc, len(e.Variants[v].Seats))}
		a.index[e.Variants[v].Name] = v
	}
	return a
}

// add counts rec, read from (or written as) line, the next line of the
// results file.
func (a *summaryAcc) add(line []byte, rec *GameRecord) error {
	v, ok := a.index[rec.Variant]
	if !ok {
		return fmt.Errorf("unknown variant %q", rec.Variant)
	}
	a.lines.add(line)
	return a.accs[v].add(rec)
}

func (a *summaryAcc) result() ExperimentSummary {
	s := ExperimentSummary{Experiment: a.e.Name, Detail: a.e.Detail.String(), Seeds: a.e.Seeds, Results: a.lines.digest()}
	for v := range a.e.Variants {
		s.Variants = append(s.Variants, a.accs[v].result(&a.e.Variants[v]))
	}
	return s
}

// SummarizeResults reads the results of a directory that holds the run
// info (every game of the run, or of a shard), checking that each line
// is the game of the run that belongs there, and sums them up by
// variant. An unfinished last line (a game being written, or lost by a
// killed run) is left out.
func SummarizeResults(dir string, e *Experiment, info RunInfo) (ExperimentSummary, error) {
	acc := newSummaryAcc(e)
	path := filepath.Join(dir, ResultsFile)
	err := eachLine(path, func(m int, line []byte) error {
		var rec GameRecord
		if le := checkLine(line, e, info, m, &rec); le != nil {
			return le.at(path, m+1)
		}
		if err := acc.add(line, &rec); err != nil {
			return badDir("%s:%d: %v", path, m+1, err)
		}
		return nil
	})
	if err != nil {
		return ExperimentSummary{}, err
	}
	return acc.result(), nil
}

// LoadSummary returns the summary of a directory's results: its
// summary.json when the results are still those it was made from (their
// size and SHA-256, which it records), or else a summary made afresh
// from the results by SummarizeResults, which refuses damaged ones.
// stale then says why summary.json could not be used; it is "" when it
// was. A run rewrites summary.json at every stop, so a stale one is a
// run still going, one killed, or results changed by hand.
//
// A directory without results.jsonl is refused: a run makes the file
// before any summary, so it has lost its games, which summary.json does
// not make up for.
func LoadSummary(dir string, e *Experiment, info RunInfo) (s ExperimentSummary, stale string, err error) {
	path := filepath.Join(dir, ResultsFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return s, "", badDir("%s: missing: the directory has lost its games (run the spec again into %s to play them)", path, dir)
	}
	stale = checkSummary(dir, e)
	if stale == "" {
		data, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
		if err := json.Unmarshal(data, &s); err == nil {
			return s, "", nil
		}
	}
	s, err = SummarizeResults(dir, e, info)
	return s, stale, err
}

// checkSummary says why a directory's summary.json is not the summary of
// its results, or "" when it is: it must name e's variants and seats, and
// count the games of the results it names, each won or tied.
func checkSummary(dir string, e *Experiment) string {
	data, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return "no " + SummaryFile
	}
	var s ExperimentSummary
	damaged := SummaryFile + " is damaged"
	if err := json.Unmarshal(data, &s); err != nil || len(s.Variants) != len(e.Variants) {
		return damaged
	}
	if s.Results == nil {
		return SummaryFile + " does not record which results it sums up (an older gopoly wrote it)"
	}
	games := 0
	for i, v := range s.Variants {
		ended := v.Ties
		for _, ss := range v.Seats {
			ended += ss.Wins
		}
		if v.Name != e.Variants[i].Name || len(v.Seats) != len(e.Variants[i].Seats) || v.Games < 0 || ended != v.Games {
			return damaged
		}
		games += v.Games
	}
	if games != s.Results.Lines {
		return damaged
	}
	path := filepath.Join(dir, ResultsFile)
	changed := fmt.Sprintf("%s has changed since %s was written (a run still going or killed, or an edit)", ResultsFile, SummaryFile)
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != s.Results.Bytes {
		return changed
	}
	f, err := os.Open(path)
	if err != nil {
		return changed
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil || hex.EncodeToString(h.Sum(nil)) != s.Results.SHA256 {
		return changed
	}
	return ""
}

// eachLine calls f with the index and bytes of every complete line of a
// file (none if it does not exist). An unfinished last line is a game
// still being written (or lost by a killed run, which a resume drops): it
// is not passed on.
func eachLine(path string, f func(m int, line []byte) error) error {
	file, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 1<<16)
	for m := 0; ; m++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if err := f(m, line); err != nil {
			return err
		}
	}
}

// eachRecord calls f with every complete record of a results file (none
// if it does not exist), numbering lines from 1.
func eachRecord(path string, f func(line int, rec *GameRecord) error) error {
	return eachLine(path, func(m int, line []byte) error {
		var rec GameRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return badDir("%s:%d: %v", path, m+1, err)
		}
		return f(m+1, &rec)
	})
}

// WriteSummaries writes s, the summary of the directory's results (see
// SummarizeResults), as summary.json and each variant's summary.json,
// and with plots the figures.
func WriteSummaries(dir string, e *Experiment, s ExperimentSummary, plots bool) error {
	if err := writeJSONFile(filepath.Join(dir, SummaryFile), s); err != nil {
		return err
	}
	var all []chart.Bar
	for _, vs := range s.Variants {
		vdir := filepath.Join(dir, VariantsDir, vs.Name)
		if err := os.MkdirAll(vdir, 0o755); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if err := writeJSONFile(filepath.Join(vdir, SummaryFile), vs); err != nil {
			return err
		}
		if vs.Games == 0 || !plots {
			continue
		}
		var wins, cash []chart.Bar
		for _, ss := range vs.Seats {
			label := fmt.Sprintf("%d %s", ss.Seat, ss.Bot)
			wins = append(wins, chart.Bar{Label: label, Value: ss.WinRate, Lo: ss.CI95[0], Hi: ss.CI95[1]})
			all = append(all, chart.Bar{Label: vs.Name + "\n" + label, Value: ss.WinRate, Lo: ss.CI95[0], Hi: ss.CI95[1]})
			if ss.Behaviour != nil {
				cash = append(cash, chart.Bar{Label: label, Value: ss.MeanCash, Lo: ss.MeanCashCI95[0], Hi: ss.MeanCashCI95[1]})
			}
		}
		title := fmt.Sprintf("%s / %s: win rate per seat, 95%% CI (%d games)", e.Name, vs.Name, vs.Games)
		if err := savePlots(filepath.Join(vdir, "winrates"), chart.BarChart{Title: title, YLabel: "win rate", Bars: wins, YMin: chart.Ptr(0)}); err != nil {
			return err
		}
		if cash != nil {
			title := fmt.Sprintf("%s / %s: mean cash through the game, 95%% CI (%d games)", e.Name, vs.Name, vs.Games)
			if err := savePlots(filepath.Join(vdir, "cash"), chart.BarChart{Title: title, YLabel: "mean cash ($)", Bars: cash, YMin: chart.Ptr(0)}); err != nil {
				return err
			}
		}
	}
	if all == nil {
		return nil
	}
	title := fmt.Sprintf("%s: win rate per variant and seat, 95%% CI", e.Name)
	// The chart widens itself to fit the labels of many bars.
	return savePlots(filepath.Join(dir, "winrates"), chart.BarChart{Title: title, YLabel: "win rate", Bars: all, YMin: chart.Ptr(0)})
}

// savePlots draws c (a chart.BarChart or LineChart) as base.png and
// base.svg, through temporary files as the other outputs.
func savePlots(base string, c interface{ Save(path string) error }) error {
	for _, ext := range []string{".png", ".svg"} {
		tmp := base + ".tmp" + ext
		if err := c.Save(tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, base+ext); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	return nil
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// meanMeasures are the per-game means of summed measures over n games,
// with cost_per_win, the total cost over the wins, when there is a cost
// and a win.
func meanMeasures(sums map[string]float64, n int, wins float64) map[string]float64 {
	out := make(map[string]float64, len(sums)+1)
	for k, sum := range sums {
		out[k] = sum / float64(n)
	}
	if cost, ok := sums["cost"]; ok && wins > 0 {
		out["cost_per_win"] = cost / wins
	}
	return out
}
