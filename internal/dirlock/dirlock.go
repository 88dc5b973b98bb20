// Package dirlock keeps two gopoly processes from writing one output
// directory at once: a writer holds an exclusive flock(2) on a lock file
// in the directory for as long as it writes, readers that must not see a
// directory half written hold a shared one, and the kernel releases
// either when the process ends, however it ends, so a killed run leaves
// no stale lock behind (the file stays, unlocked).
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// File is the lock file's name in a locked directory. It is not part of
// what the directory holds: Entries leaves it out.
const File = ".gopoly.lock"

// ErrBusy reports a directory another process holds.
var ErrBusy = errors.New("dirlock: directory in use")

// Lock is a held lock; Release lets it go.
type Lock struct{ f *os.File }

// Exclusive takes dir's lock for writing, without waiting: a directory
// that another process reads or writes is refused with ErrBusy. dir must
// exist.
func Exclusive(dir string) (*Lock, error) { return lock(dir, syscall.LOCK_EX, "read or written") }

// Shared takes dir's lock for reading, without waiting: refused with
// ErrBusy while another process writes it, shared with other readers.
func Shared(dir string) (*Lock, error) { return lock(dir, syscall.LOCK_SH, "written") }

// lock takes dir's lock as how says; busy says what another process is
// doing when it cannot.
func lock(dir string, how int, busy string) (*Lock, error) {
	f, err := os.OpenFile(filepath.Join(dir, File), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dirlock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is being %s by another gopoly process; wait for it to finish, or give another directory", ErrBusy, dir, busy)
		}
		return nil, fmt.Errorf("dirlock: %s: %w", dir, err)
	}
	return &Lock{f: f}, nil
}

// Release lets the lock go.
func (l *Lock) Release() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("dirlock: %w", err)
	}
	return nil
}

// Entries returns the names dir holds, sorted, leaving out the lock file
// (nil for a directory that does not exist).
func Entries(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dirlock: %w", err)
	}
	var names []string
	for _, e := range es {
		if e.Name() != File {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}
