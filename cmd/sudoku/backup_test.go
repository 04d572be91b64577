package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// puzzleRow is one row of the puzzles table, every column.
type puzzleRow struct {
	ID                                  int64
	Givens, Solution, EngineVersion     string
	Clues, Solutions                    int64
	Backtracks, Guesses, Nodes, SolveNS int64
	SubmittedAt, Submissions            int64
}

func allRows(tb testing.TB, db *sql.DB) []puzzleRow {
	tb.Helper()
	rs, err := db.Query(`SELECT id, givens, solution, engine_version, clues, solutions, backtracks, guesses, nodes, solve_ns,
		submitted_at, submissions FROM puzzles ORDER BY id`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rs.Close()
	var out []puzzleRow
	for rs.Next() {
		var r puzzleRow
		if err := rs.Scan(&r.ID, &r.Givens, &r.Solution, &r.EngineVersion, &r.Clues, &r.Solutions, &r.Backtracks, &r.Guesses,
			&r.Nodes, &r.SolveNS, &r.SubmittedAt, &r.Submissions); err != nil {
			tb.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rs.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestBackupWhileServing backs up the database of a running `sudoku serve`
// while clients keep submitting, then checks the copy: integrity ok, totals
// agree, it is a snapshot (ids 1..n, each row identical to the live one but
// for a submission count that may have grown since), it holds every
// submission acknowledged before the backup began, and a server started on
// it serves it.
func TestBackupWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server under load: skipped with -short")
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "sudoku.db")
	s := startServe(t, dbPath, "--rate-limit", "0")
	src := newPuzzleSource(t)
	tl := newTally()
	ctx, cancel := context.WithCancel(context.Background())
	wg := startSubmitters(t, ctx, s.url, src, tl, 4)
	for {
		if n, _ := tl.total(); n >= 200 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}

	before := tl.snapshot()
	out := filepath.Join(dir, "copy.db")
	var stdout strings.Builder
	if err := run(context.Background(), []string{"backup", "--db", dbPath, out}, func(string) string { return "" },
		strings.NewReader(""), &stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
	during := tl.snapshot()
	// Writes go on after the backup: wait for some new puzzles.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if n, _ := tl.total(); n >= len(during)+10 {
			break
		}
	}
	cancel()
	wg.Wait()
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(stdout.String()))
	if !strings.HasPrefix(stdout.String(), "backed up "+dbPath+" to "+out) {
		t.Errorf("output %q", stdout.String())
	}
	n := checkBackupCopy(t, out, dbPath, before, during)

	// Restore: the copy serves.
	s = startServe(t, out)
	var page struct {
		Total int64 `json:"total"`
	}
	if res := call(t, "GET", s.url+"/api/puzzles", "", &page); res.StatusCode != http.StatusOK || page.Total != int64(n) {
		t.Errorf("serving the copy: status %d, total %d, want %d", res.StatusCode, page.Total, n)
	}
	s.stop()
}

// startSubmitters starts n clients that submit to the server at base until
// ctx ends, a third of them repeats of acknowledged puzzles, and count
// every acknowledgement in tl. Wait on the group returned.
func startSubmitters(t *testing.T, ctx context.Context, base string, src *puzzleSource, tl *tally, n int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for c := range n {
		wg.Go(func() {
			client := &http.Client{Timeout: 20 * time.Second}
			for i := 0; ctx.Err() == nil; i++ {
				p, _ := tl.pick(uint64(i * (c + 3)))
				if p == "" || i%3 != 0 {
					p = src.next()
				}
				res, err := submit(context.Background(), client, base, p)
				if err != nil || (res.status != http.StatusCreated && res.status != http.StatusOK) {
					t.Errorf("submit: %v, %+v", err, res)
					return
				}
				tl.ack(p, res.id)
			}
		})
	}
	return &wg
}

// snapshot copies the acknowledged submissions per puzzle.
func (t *tally) snapshot() map[string]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := make(map[string]int64, len(t.acked))
	for p, n := range t.acked {
		m[p] = n
	}
	return m
}

// checkBackupCopy checks the backup at out against the live database at
// dbPath, written to since: integrity ok, a snapshot (ids 1..n, each row
// identical to the live one but for a submission count that may have grown
// since), every submission acknowledged before the backup began in it and
// none acknowledged after its end. It returns the copy's rows.
func checkBackupCopy(t *testing.T, out, dbPath string, before, during map[string]int64) int {
	t.Helper()
	inspect(t, out)
	cp, live := openRaw(t, out), openRaw(t, dbPath)
	copyRows, liveRows := allRows(t, cp), allRows(t, live)
	if len(copyRows) == len(liveRows) {
		t.Errorf("copy and live database both hold %d puzzles: the writes after the backup are missing", len(copyRows))
	}
	got := map[string]int64{}
	for i, r := range copyRows {
		if r.ID != int64(i+1) || i >= len(liveRows) {
			t.Fatalf("copy row %d has id %d (live has %d rows): not a snapshot", i+1, r.ID, len(liveRows))
		}
		l := liveRows[i]
		if r.Submissions > l.Submissions {
			t.Errorf("id %d: %d submissions in the copy, %d live", r.ID, r.Submissions, l.Submissions)
		}
		r.Submissions = l.Submissions
		if d := cmp.Diff(l, r); d != "" {
			t.Errorf("id %d differs (-live +copy):\n%s", r.ID, d)
		}
		got[r.Givens] = copyRows[i].Submissions
	}
	for p, n := range before {
		if got[p] < n {
			t.Errorf("puzzle %s: %d submissions acknowledged before the backup, %d in the copy", p, n, got[p])
		}
	}
	for p, n := range got {
		if n > during[p] {
			t.Errorf("puzzle %s: %d submissions in the copy, only %d acknowledged by the backup's end", p, n, during[p])
		}
	}
	t.Logf("copy: %d puzzles (%d acknowledged before the backup began, %d live at the end)", len(copyRows), len(before), len(liveRows))
	return len(copyRows)
}

func TestBackupErrors(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "sudoku.db")
	backup := func(args ...string) error {
		return run(context.Background(), append([]string{"backup"}, args...), func(string) string { return "" },
			strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	}
	if err := backup("--db", dbPath, filepath.Join(dir, "a.db")); err == nil || !strings.Contains(err.Error(), "no archive at") {
		t.Errorf("missing database: %v", err)
	}
	if _, err := os.Stat(dbPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("backup created %s", dbPath)
	}
	sqliteArchiveAt(t, dbPath)
	var u errUsage
	if err := backup("--db", dbPath); !errors.As(err, &u) {
		t.Errorf("no OUT: %v, want a usage error", err)
	}
	out := filepath.Join(dir, "copy.db")
	if err := backup("--db", dbPath, out); err != nil {
		t.Fatal(err)
	}
	if err := backup("--db", dbPath, out); err == nil || !strings.Contains(err.Error(), "file exists") {
		t.Errorf("existing OUT: %v", err)
	} // A PostgreSQL archive is PostgreSQL's to back up; the URL's password
	// stays out of the message.
	err := backup("--db", "postgres://me:secret@db.invalid/sudoku", filepath.Join(dir, "pg.db"))
	if err == nil || !strings.Contains(err.Error(), "pg_dump") || strings.Contains(err.Error(), "secret") {
		t.Errorf("PostgreSQL URL: %v, want a pointer to pg_dump without the password", err)
	}
}

// TestBackupReadOnlyArchive: an archive on a file and directory that
// cannot be written (a disk gone read-only) is still backed up: backup
// opens it read-only and never migrates it. As root, permissions bind
// nobody, so the directory is made read-only by a read-only bind mount.
func TestBackupReadOnlyArchive(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "sudoku.db")
	sqliteArchiveAt(t, dbPath)
	if _, _, err := runCmd(t, easy+"\n", "import", "--db", dbPath, "-"); err != nil {
		t.Fatal(err)
	}
	roDir := readOnlyDir(t, dir)
	if err := os.Chmod(dbPath, 0o444); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	stdout, stderr, err := runCmd(t, "", "backup", "--db", filepath.Join(roDir, "sudoku.db"), out)
	if err != nil {
		t.Fatalf("backup of a read-only archive: %v (stderr %q)", err, stderr)
	}
	if !strings.Contains(stdout, "backed up") {
		t.Errorf("stdout %q", stdout)
	}
	if got, _, err := runCmd(t, "", "export", "--db", out); err != nil || !strings.Contains(got, easy) {
		t.Errorf("export of the copy: %v, %q", err, got)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("copy's mode: %v %v, want -rw-------", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("backup wrote beside the archive: %v", entries)
	}
}

// readOnlyDir returns dir as a directory that cannot be written: chmod
// 0555 for an ordinary user, a read-only bind mount of it for root (whom
// permissions do not bind). It skips where neither works.
func readOnlyDir(t *testing.T, dir string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return dir
	}
	ro := t.TempDir()
	if err := syscall.Mount(dir, ro, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("root without mount (%v): cannot make a read-only directory", err)
	}
	t.Cleanup(func() { syscall.Unmount(ro, syscall.MNT_DETACH) })
	if err := syscall.Mount("", ro, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only: %v", err)
	}
	return ro
}
