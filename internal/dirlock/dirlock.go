// Package dirlock keeps two gopoly processes from writing one output
// directory at once: a writer holds an exclusive flock(2) on a lock file
// in the directory for as long as it writes, readers that must not see a
// directory half written hold a shared one, and the kernel releases
// either when the process ends, however it ends, so a killed run leaves
// no stale lock behind (the file stays, unlocked, and is reused).
//
// Release removes the lock file, but only while it holds the lock
// exclusively: another process may have opened the file and be about to
// lock it, and a lock on a file no longer in the directory would exclude
// nobody who opens the path afresh. So a process that has locked the
// file checks that it is still the one in the directory, and starts
// again if not; and the last reader out removes the file, not a reader
// that others still share it with.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// File is the lock file's name in a locked directory. It is not part of
// what the directory holds: Entries leaves it out.
const File = ".gopoly.lock"

// ErrBusy reports a directory another process holds.
var ErrBusy = errors.New("dirlock: directory in use")

// Lock is a held lock; Release lets it go.
type Lock struct {
	f    *os.File
	path string
}

// Exclusive takes dir's lock for writing, without waiting: a directory
// that another process reads or writes is refused with ErrBusy. dir must
// exist.
func Exclusive(dir string) (*Lock, error) { return lock(dir, syscall.LOCK_EX, "read or written") }

// Shared takes dir's lock for reading, without waiting: refused with
// ErrBusy while another process writes it, shared with other readers.
func Shared(dir string) (*Lock, error) { return lock(dir, syscall.LOCK_SH, "written") }

// busyFor is how long a lock that another holds is tried again before
// the directory is reported busy. A reader letting go holds the lock
// exclusively for the instant it takes to remove the file (Release); a
// reader asking at that instant would otherwise be told the directory is
// being written. A real writer holds it far longer.
const busyFor = 50 * time.Millisecond

// lock takes dir's lock as how says; busy says what another process is
// doing when it cannot.
func lock(dir string, how int, busy string) (*Lock, error) {
	path := filepath.Join(dir, File)
	var since time.Time
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("dirlock: %w", err)
		}
		if testHookOpened != nil {
			testHookOpened()
		}
		if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				if since.IsZero() {
					since = time.Now()
				}
				if time.Since(since) < busyFor {
					time.Sleep(time.Millisecond)
					continue
				}
				return nil, fmt.Errorf("%w: %s is being %s by another gopoly process; wait for it to finish, or give another directory", ErrBusy, dir, busy)
			}
			return nil, fmt.Errorf("dirlock: %s: %w", dir, err)
		}
		// The holder before may have removed the file between the open
		// and the flock: this lock is then on a file that the next
		// process will not find. Open the one in the directory now.
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("dirlock: %w", err)
		}
		now, err := os.Stat(path)
		if err == nil && os.SameFile(held, now) {
			return &Lock{f: f, path: path}, nil
		}
		f.Close()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("dirlock: %w", err)
		}
	}
}

// testHookOpened, when set, runs between a lock file's open and its
// flock: a test removes the file there, as a process releasing it might.
var testHookOpened func()

// Release lets the lock go and removes the lock file, unless another
// reader still shares it: the last reader out removes it.
func (l *Lock) Release() error {
	// Removing is safe only under an exclusive lock (see the package
	// doc); a reader's shared lock becomes one only when it is the last.
	// If the conversion fails, the shared lock may be gone already
	// (flock converts by releasing first), which is what Release wants.
	var rmErr error
	if syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			rmErr = fmt.Errorf("dirlock: %w", err)
		}
	}
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("dirlock: %w", err)
	}
	return rmErr
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
