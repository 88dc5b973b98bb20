package main

import (
	"fmt"
	"io"

	"github.com/gopoly/gopoly/arena"
)

// faultCols are the columns a table of results gains when a program's
// fallback answered for it (arena.Faults): none otherwise, so that a
// table of bots is as it always was.
type faultCols bool

// anyFaults reports whether any of fs has a fallback answer.
func anyFaults(fs ...arena.Faults) faultCols {
	for _, f := range fs {
		if f.Any() {
			return true
		}
	}
	return false
}

// head returns the columns' headings, after a space.
func (c faultCols) head() string {
	if !c {
		return ""
	}
	return fmt.Sprintf(" %9s %7s", "fallbacks", "retired")
}

// last returns the last cell of a line (or heading) before the
// columns, padded to width when they follow it.
func (c faultCols) last(cell string, width int) string {
	if !c {
		return cell
	}
	return fmt.Sprintf("%-*s", width, cell)
}

// cells returns f's cells, after a space.
func (c faultCols) cells(f arena.Faults) string {
	if !c {
		return ""
	}
	return fmt.Sprintf(" %9d %7d", f.Fallbacks, f.Retirements)
}

// warnFaults writes, under a table, a line for a result whose program's
// fallback answered for it, so that its wins are not read as its own.
func warnFaults(w io.Writer, name string, f arena.Faults, wins float64) {
	if !f.Any() {
		return
	}
	fmt.Fprintf(w, "warning: %s: its fallback gave %s", name, plural(f.Fallbacks, "answer"))
	if f.Retirements > 0 {
		fmt.Fprintf(w, " and played on in the %s it was retired in, winning %.4g of its %.4g wins", plural(f.Retirements, "seat-game"), f.WinsWhileRetired, wins)
	}
	fmt.Fprintln(w, ": those are its fallback's play, not its own")
}
