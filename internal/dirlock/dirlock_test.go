package dirlock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// One writer at a time, readers together, never a reader with a writer;
// a released lock, or one whose process ended, can be taken again; the
// lock file is not an entry of the directory.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	w, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second writer: %v", err)
	}
	if _, err := Shared(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a reader while writing: %v", err)
	}
	if err := w.Release(); err != nil {
		t.Fatal(err)
	}
	r1, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Shared(dir)
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a writer while reading: %v", err)
	}
	r1.Release()
	r2.Release()
	if names, err := Entries(dir); err != nil || len(names) != 0 {
		t.Fatalf("entries %v, %v: the lock file counts", names, err)
	}
	os.WriteFile(filepath.Join(dir, "b"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "a"), nil, 0o644)
	if names, _ := Entries(dir); !slices.Equal(names, []string{"a", "b"}) {
		t.Fatalf("entries %v", names)
	}
	if names, err := Entries(filepath.Join(dir, "none")); names != nil || err != nil {
		t.Fatalf("a missing directory: %v, %v", names, err)
	}

	// Another process's lock, and its end: the test binary holds it.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DIRLOCK_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("the holder: %v", err)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("another process holds the lock: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()
}

// A clean release leaves no lock file behind: a writer's at once, the
// readers' when the last of them goes.
func TestReleaseRemoves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	gone := func(want bool, when string) {
		t.Helper()
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) != want {
			t.Errorf("%s: lock file gone %v, want %v (%v)", when, !want, want, err)
		}
	}
	w, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	gone(false, "while writing")
	if err := w.Release(); err != nil {
		t.Fatal(err)
	}
	gone(true, "after the writer")
	r1, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := r1.Release(); err != nil {
		t.Fatal(err)
	}
	gone(false, "while a reader stays")
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a writer while the other reader stays: %v", err)
	}
	if err := r2.Release(); err != nil {
		t.Fatal(err)
	}
	gone(true, "after the last reader")
	if err := os.Remove(dir); err != nil {
		t.Errorf("the directory is not left empty: %v", err)
	}
}

// A process that opened the lock file just before its holder removed
// it, and locks it just after, holds a lock on a file no longer in the
// directory: it must take the one there instead, or a third process
// would lock a new file beside it.
func TestLockAfterRemoval(t *testing.T) {
	dir := t.TempDir()
	w, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	opens := 0
	testHookOpened = func() {
		opens++
		if opens == 1 {
			if err := w.Release(); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { testHookOpened = nil }()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if opens != 2 {
		t.Errorf("%d opens, want 2: the removed file was not noticed", opens)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second writer beside the lock taken after a removal: %v", err)
	}
	if _, err := Shared(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("a reader beside the lock taken after a removal: %v", err)
	}
}

// A reader that asks while another reader lets go gets the lock: the one
// letting go holds it exclusively only while it removes the file. (Two
// shards of a tuning run, one process, met there: one merging while the
// other released its look at the same shard.)
func TestSharedWhileAnotherLetsGo(t *testing.T) {
	dir := t.TempDir()
	f, err := os.OpenFile(filepath.Join(dir, File), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The instant of Release, stretched: exclusive, then gone.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(5 * time.Millisecond)
		os.Remove(f.Name())
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}()
	r, err := Shared(dir)
	if err != nil {
		t.Fatalf("a reader while another let go: %v", err)
	}
	r.Release()
}

// TestMain lets the test binary hold a directory's lock until it is
// killed (DIRLOCK_HOLD=dir), as a run that dies holding it.
func TestMain(m *testing.M) {
	if dir := os.Getenv("DIRLOCK_HOLD"); dir != "" {
		if _, err := Exclusive(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("held")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
