package table

import (
	"context"
	"time"

	"github.com/gopoly/gopoly/session"
)

// Listed is a stored game as the front ends list it: public facts only,
// never its tokens. Each front end writes it under its own names.
type Listed struct {
	ID      string
	Parent  string
	Created time.Time
	Seats   []session.Seat
	Status  session.Status
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
		if keep != nil && !keep(r.Status) {
			continue
		}
		setup, err := r.DecodeSetup()
		if err != nil {
			if strict {
				return nil, err
			}
			continue
		}
		out = append(out, Listed{ID: r.ID, Parent: r.Parent, Created: r.Created, Seats: setup.Seats, Status: r.Status})
	}
	return out, nil
}
