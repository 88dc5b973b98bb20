package store

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of the tests' admin connections

	"github.com/gopoly/gopoly/internal/citest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store/storetest"
)

// Environment of the test binary re-run as a worker process (see
// TestMain): the mode, the data directory, the worker's name and how many
// appends it makes.
const (
	workerEnv     = "GOPOLY_STORE_TEST_WORKER"
	workerDirEnv  = "GOPOLY_STORE_TEST_DIR"
	workerNameEnv = "GOPOLY_STORE_TEST_NAME"
	workerNEnv    = "GOPOLY_STORE_TEST_N"
)

// TestMain lets the tests run the test binary as a second process sharing
// a data directory (with GOPOLY_STORE_TEST_WORKER set): only a real
// process has its own SQLite connections, locks and page cache, and can
// be killed.
func TestMain(m *testing.M) {
	if mode := os.Getenv(workerEnv); mode != "" {
		if err := worker(mode); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSQLiteContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store {
		s, err := Open(t.Context(), Options{DataDir: filepath.Join(t.TempDir(), "data")})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestPostgresContract(t *testing.T) {
	dsn := postgresDSN(t)
	storetest.Run(t, func(t *testing.T) session.Store {
		s, err := Open(t.Context(), Options{DSN: pgSchema(t, dsn)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// postgresDSN is the test server's DSN; without one the test is skipped,
// except on CI, where a skip would hide that the PostgreSQL store went
// untested.
func postgresDSN(t testing.TB) string {
	t.Helper()
	return citest.PostgresDSN(t, "the PostgreSQL store")
}

// pgSchema creates a schema of its own for a test, dropped when the test
// ends, and returns the DSN that puts a store in it: test runs (and
// subtests) sharing a server never see each other's sessions.
func pgSchema(t testing.TB, dsn string) string {
	t.Helper()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := "gopoly_test_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.Exec(`CREATE SCHEMA ` + name); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP SCHEMA ` + name + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
		admin.Close()
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

func TestOpenSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "data")
	s, err := Open(t.Context(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("data directory mode %v, want 0700", fi.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, "gopoly.db")); err != nil {
		t.Errorf("no database file: %v", err)
	}
	// Every connection of the pool must be configured, so ask several at
	// once.
	d := s.(*db)
	conns := make([]*sql.Conn, 3)
	for i := range conns {
		if conns[i], err = d.sql.Conn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range conns {
		for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": syncValue(sqliteSync), "foreign_keys": "1", "busy_timeout": strconv.Itoa(busyTimeoutMS)} {
			var got string
			if err := c.QueryRowContext(t.Context(), "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: %s = %s, want %s", i, pragma, got, want)
			}
		}
		c.Close()
	}
	rec := session.Record{ID: "kept", Version: 1, Created: time.Now()}
	if err := s.Create(t.Context(), rec, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening again finds the session and migrates nothing.
	s, err = Open(t.Context(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Load(t.Context(), "kept"); err != nil {
		t.Fatalf("after reopening: %v", err)
	}
}

// TestSQLiteReadsDuringWrite: reads do not queue behind a writer (WAL
// readers see the last commit), so a long append cannot stall a listing.
func TestSQLiteReadsDuringWrite(t *testing.T) {
	s, err := Open(t.Context(), Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(t.Context(), session.Record{ID: "g"}, testEntries("a", 0, 2)); err != nil {
		t.Fatal(err)
	}
	tx, err := s.(*db).sql.BeginTx(t.Context(), nil) // takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE sessions SET summary = 'uncommitted' WHERE id = 'g'`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	t0 := time.Now()
	rec, log, err := s.Load(ctx, "g")
	if err != nil || len(log) != 2 || rec.Status.Summary != "" {
		t.Fatalf("Load during a write: %v, %d entries, summary %q", err, len(log), rec.Status.Summary)
	}
	if _, err := s.List(ctx); err != nil {
		t.Fatalf("List during a write: %v", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Fatalf("reads waited %v for the writer", d)
	}
}

// syncValue is what PRAGMA synchronous reports for a mode.
func syncValue(mode string) string {
	return map[string]string{"OFF": "0", "NORMAL": "1", "FULL": "2", "EXTRA": "3"}[mode]
}

func TestDefaultDataDir(t *testing.T) {
	t.Setenv("HOME", "/home/ann")
	for _, tc := range []struct{ gopoly, xdg, want string }{
		{"/srv/gopoly", "/x", "/srv/gopoly"},
		{"", "/home/ann/.data", "/home/ann/.data/gopoly"},
		{"", "relative/ignored", "/home/ann/.local/share/gopoly"},
		{"", "", "/home/ann/.local/share/gopoly"},
	} {
		t.Setenv("GOPOLY_HOME", tc.gopoly)
		t.Setenv("XDG_DATA_HOME", tc.xdg)
		got, err := DefaultDataDir()
		if err != nil || got != tc.want {
			t.Errorf("GOPOLY_HOME=%q XDG_DATA_HOME=%q: got %q, %v; want %q", tc.gopoly, tc.xdg, got, err, tc.want)
		}
	}
	t.Setenv("GOPOLY_HOME", "/srv/g")
	if got := Describe(Options{}); got != "sqlite /srv/g/gopoly.db" {
		t.Errorf("Describe with the default directory: %q", got)
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{DataDir: "/var/lib/gopoly"}, "sqlite /var/lib/gopoly/gopoly.db"},
		{Options{DSN: "postgres://ann:s3cret@db.example:6543/games?sslmode=disable"}, "postgres db.example:6543/games"},
		{Options{DSN: "postgresql://ann:s3cret@db.example/games"}, "postgres db.example:5432/games"},
		{Options{DSN: "postgres://ann@[::1]:5433/g"}, "postgres [::1]:5433/g"},
		{Options{DSN: "postgres:///gopoly?host=/run/postgresql"}, "postgres localhost:5432/gopoly"},
		{Options{DSN: "mysql://x"}, "unsupported DSN"},
	} {
		got := Describe(tc.o)
		if got != tc.want {
			t.Errorf("Describe(%+v) = %q, want %q", tc.o, got, tc.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("Describe(%+v) shows the password: %q", tc.o, got)
		}
	}
}

func TestOpenUnsupportedDSN(t *testing.T) {
	_, err := Open(t.Context(), Options{DSN: "mysql://ann:s3cret@db/games", DataDir: t.TempDir()})
	if err == nil || !strings.HasPrefix(err.Error(), "store:") || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("got %v, want a store: error without the password", err)
	}
}

// TestPostgresErrorsHideThePassword needs no server: nothing listens on
// the port, and the error must still not quote the DSN's password.
func TestPostgresErrorsHideThePassword(t *testing.T) {
	const pw = "hunter2-Secret"
	for _, dsn := range []string{
		"postgres://ann:" + pw + "@127.0.0.1:1/games?connect_timeout=2",
		"postgres://ann:" + pw + "@127.0.0.1:1/games?sslmode=bogus",
		"postgresql://ann:" + url.QueryEscape(pw+"/?") + "@127.0.0.1:1/games?connect_timeout=2",
	} {
		_, err := Open(t.Context(), Options{DSN: dsn})
		if err == nil {
			t.Fatalf("Open(%s) succeeded", dsn)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "store:") || strings.Contains(msg, pw) || strings.Contains(msg, url.QueryEscape(pw)) {
			t.Errorf("error shows the password or lacks store: %q", msg)
		}
	}
}

func TestPostgresWrongPassword(t *testing.T) {
	dsn := postgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	const pw = "not-the-Password-42"
	u.User = url.UserPassword(u.User.Username(), pw)
	_, err = Open(t.Context(), Options{DSN: u.String()})
	if err == nil && citest.CI() {
		t.Fatal("the server let in a wrong password: .ci/postgres starts it with scram-sha-256 over TCP")
	}
	if err == nil {
		t.Skip("the test server does not check passwords")
	}
	if !strings.HasPrefix(err.Error(), "store:") || strings.Contains(err.Error(), pw) {
		t.Errorf("error shows the password or lacks store: %q", err)
	}
}

func TestPostgresReopen(t *testing.T) {
	dsn := pgSchema(t, postgresDSN(t))
	s, err := Open(t.Context(), Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(t.Context(), session.Record{ID: "kept", Created: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(t.Context(), Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Load(t.Context(), "kept"); err != nil {
		t.Fatalf("after reopening: %v", err)
	}
}

// testEntry is entry k of a worker's log.
func testEntry(who string, k int) session.Entry {
	return session.Entry{
		Seat:   k % 4,
		Action: json.RawMessage(`{"kind":"roll","k":` + strconv.Itoa(k) + `}`),
		Speech: fmt.Sprintf("%s %d", who, k),
		By:     who,
		At:     time.Unix(0, int64(k)).UTC(),
	}
}

// testEntries is entries from..from+n-1 of a worker's log.
func testEntries(who string, from, n int) []session.Entry {
	es := make([]session.Entry, n)
	for i := range es {
		es[i] = testEntry(who, from+i)
	}
	return es
}

// worker is the body of a worker process.
func worker(mode string) error {
	dir, name := os.Getenv(workerDirEnv), os.Getenv(workerNameEnv)
	n, err := strconv.Atoi(os.Getenv(workerNEnv))
	if err != nil {
		return err
	}
	// Bounded, so that a worker whose parent died stops by itself.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Open(ctx, Options{DataDir: dir})
	if err != nil {
		return err
	}
	defer s.Close()
	switch mode {
	case "race":
		return raceWorker(ctx, s, name, n)
	case "ack":
		return ackWorker(ctx, s, name, n)
	}
	return fmt.Errorf("unknown mode %q", mode)
}

// raceWorker appends n times 4 entries to a session of its own and n
// times one entry to the session "shared", which the other worker appends
// to as well: it starts from a length it guesses (0) and reloads after
// each conflict, like a server whose view went stale.
func raceWorker(ctx context.Context, s session.Store, name string, n int) error {
	own := "own-" + name
	if err := s.Create(ctx, session.Record{ID: own, Created: time.Now()}, nil); err != nil {
		return err
	}
	if err := s.Create(ctx, session.Record{ID: "shared", Created: time.Now()}, nil); err != nil && !errors.Is(err, session.ErrExists) {
		return err
	}
	// Both workers are open (and so migrated the new directory at the same
	// time); wait for the parent's go so that their appends overlap rather
	// than follow each process's start-up.
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return fmt.Errorf("waiting for go: %w", err)
	}
	conflicts, from := 0, 0
	for i := range n {
		// A pause, as between answers at a table, lets the other process
		// take the write lock: SQLite's busy wait is not fair, and without
		// it one process tends to run all its appends in a row.
		time.Sleep(time.Duration(mrand.IntN(1000)) * time.Microsecond)
		if err := s.Append(ctx, own, 4*i, testEntries(name, 4*i, 4), session.Status{Updated: time.Now()}); err != nil {
			return err
		}
		for {
			err := s.Append(ctx, "shared", from, []session.Entry{testEntry(name, i)}, session.Status{Updated: time.Now()})
			if err == nil {
				from++
				break
			}
			if !errors.Is(err, session.ErrConflict) {
				return err
			}
			conflicts++
			_, log, err := s.Load(ctx, "shared")
			if err != nil {
				return err
			}
			from = len(log)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]int{"conflicts": conflicts})
}

// ackWorker appends one entry at a time to the session "acked" (made by
// the parent) and prints "ack K" once append K has returned, until killed
// or n appends.
func ackWorker(ctx context.Context, s session.Store, name string, n int) error {
	for k := range n {
		if err := s.Append(ctx, "acked", k, []session.Entry{testEntry(name, k)}, session.Status{Updated: time.Now()}); err != nil {
			return err
		}
		if _, err := fmt.Printf("ack %d\n", k); err != nil {
			return err
		}
	}
	return nil
}

// workerCmd is the test binary as a worker process.
func workerCmd(mode, dir, name string, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+mode, workerDirEnv+"="+dir, workerNameEnv+"="+name, workerNEnv+"="+strconv.Itoa(n))
	return cmd
}

// TestTwoProcesses: two processes open one new data directory at the
// same moment and append, each to a session of its own and both to one
// shared session; every acknowledged entry is stored exactly once, in
// each writer's order, and the database is sound.
func TestTwoProcesses(t *testing.T) {
	const n = 300
	dir := filepath.Join(t.TempDir(), "shared-data")
	names := []string{"a", "b"}
	cmds := make([]*exec.Cmd, len(names))
	outs := make([]*bufio.Reader, len(names))
	gos := make([]io.WriteCloser, len(names))
	errs := make([]*strings.Builder, len(names))
	for i, name := range names {
		cmds[i] = workerCmd("race", dir, name, n)
		errs[i] = &strings.Builder{}
		cmds[i].Stderr = errs[i]
		out, err := cmds[i].StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = bufio.NewReader(out)
		if gos[i], err = cmds[i].StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatalf("worker %s: %v", names[i], err)
		}
		defer c.Process.Kill()
	}
	for i := range cmds {
		if line, err := outs[i].ReadString('\n'); line != "ready\n" {
			cmds[i].Wait()
			t.Fatalf("worker %s: %q, %v\n%s", names[i], line, err, errs[i])
		}
	}
	for i := range cmds {
		if _, err := io.WriteString(gos[i], "go\n"); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		line, _ := outs[i].ReadString('\n')
		if err := c.Wait(); err != nil {
			t.Fatalf("worker %s: %v\n%s", names[i], err, errs[i])
		}
		var res struct{ Conflicts int }
		if err := json.Unmarshal([]byte(line), &res); err != nil {
			t.Fatalf("worker %s: %v: %q", names[i], err, line)
		}
		t.Logf("worker %s: %d conflicts on the shared session", names[i], res.Conflicts)
	}

	s, err := Open(t.Context(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range names {
		rec, log, err := s.Load(t.Context(), "own-"+name)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != 4*n || rec.Status.Entries != 4*n {
			t.Fatalf("own-%s: %d entries (status %d), want %d", name, len(log), rec.Status.Entries, 4*n)
		}
		for k, e := range log {
			if e.Speech != testEntry(name, k).Speech {
				t.Fatalf("own-%s: entry %d is %q", name, k, e.Speech)
			}
		}
	}
	rec, log, err := s.Load(t.Context(), "shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2*n || rec.Status.Entries != 2*n {
		t.Fatalf("shared: %d entries (status %d), want %d", len(log), rec.Status.Entries, 2*n)
	}
	next := map[string]int{}
	for _, e := range log {
		if want := testEntry(e.By, next[e.By]).Speech; e.Speech != want {
			t.Fatalf("shared: got %q, want %q (lost or duplicated entry)", e.Speech, want)
		}
		next[e.By]++
	}
	checkIntegrity(t, s)
}

// TestKilledProcessKeepsAcknowledgedAppends kills a process that appends
// without pause: every append it acknowledged is in the log, the log is a
// clean prefix of what it meant to write, and the database is sound.
func TestKilledProcessKeepsAcknowledgedAppends(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(t.Context(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(t.Context(), session.Record{ID: "acked", Created: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()

	cmd := workerCmd("ack", dir, "k", 1_000_000)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := -1
	sc := bufio.NewScanner(out)
	for acked < 150 && sc.Scan() {
		if acked, err = strconv.Atoi(strings.TrimPrefix(sc.Text(), "ack ")); err != nil {
			t.Fatalf("worker said %q", sc.Text())
		}
	}
	// Killed in the middle of its next append, most likely.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if acked < 150 {
		t.Fatalf("worker stopped after %d acknowledged appends: %s", acked+1, stderr.String())
	}

	s, err = Open(t.Context(), Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, log, err := s.Load(t.Context(), "acked")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("acknowledged %d appends, found %d", acked+1, len(log))
	if len(log) < acked+1 || rec.Status.Entries != len(log) {
		t.Fatalf("log has %d entries (status %d), %d were acknowledged", len(log), rec.Status.Entries, acked+1)
	}
	for k, e := range log {
		if e.Speech != testEntry("k", k).Speech {
			t.Fatalf("entry %d is %q", k, e.Speech)
		}
	}
	// The store goes on from there.
	if err := s.Append(t.Context(), "acked", len(log), testEntries("k", len(log), 1), session.Status{}); err != nil {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
}

// checkIntegrity runs SQLite's own consistency check on s.
func checkIntegrity(t *testing.T, s session.Store) {
	t.Helper()
	var res string
	if err := s.(*db).sql.QueryRowContext(t.Context(), "PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatal(err)
	}
	if res != "ok" {
		t.Fatalf("integrity_check: %s", res)
	}
}
