package table

import (
	"context"
	"time"

	"github.com/gopoly/gopoly/session"
)

// Listed is a stored game as the front ends list it: public facts only,
// never its tokens. Each front end puts its own id and status words
// around it.
type Listed struct {
	ID      string         `json:"-"`
	Status  session.Status `json:"-"` // as stored with the last answer
	Parent  string         `json:"parent,omitempty"`
	Created time.Time      `json:"created"`
	Updated time.Time      `json:"updated"`
	Seats   []session.Seat `json:"seats"`
	Entries int            `json:"entries"`
	Round   int            `json:"round"`
	Over    bool           `json:"over"`
	Winner  int            `json:"winner"`
	Waiting int            `json:"waiting"`
}

// List returns the stored games of m that keep accepts (nil: all),
// newest first. A record whose setup does not decode fails the list when
// strict, and is skipped otherwise (a page lists what it can).
func List(ctx context.Context, m *session.Manager, strict bool, keep func(session.Status) bool) ([]Listed, error) {
	recs, err := m.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Listed, 0, len(recs))
	for _, r := range recs {
		st := r.Status
		if keep != nil && !keep(st) {
			continue
		}
		setup, err := r.DecodeSetup()
		if err != nil {
			if strict {
				return nil, err
			}
			continue
		}
		out = append(out, Listed{ID: r.ID, Status: st, Parent: r.Parent, Created: r.Created, Updated: st.Updated, Seats: setup.Seats,
			Entries: st.Entries, Round: st.Round, Over: st.Over, Winner: st.Winner, Waiting: st.Waiting})
	}
	return out, nil
}
