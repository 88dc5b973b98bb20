package dirlock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
