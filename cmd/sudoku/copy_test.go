package main

import (
	"context"
	"database/sql"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fillArchive fills the archive at dsn with rows of every kind a copy must
// keep: puzzles submitted several times, other ways of writing an archived
// puzzle (same_as), one with several solutions, graded and ungraded rows,
// and puzzles of the day; then the players and all that comes with them
// (fillPlayers). It returns the visible rows, as archiveRows reads them,
// and what fillPlayers made.
func fillArchive(t *testing.T, dsn string) ([]record.Puzzle, copyPeople) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ps := copySamplePuzzles(t)
	if _, err := db.SubmitMany(ctx, ps[:20]); err != nil {
		t.Fatal(err)
	}
	// Grades as the background grader stores them, then more rows that
	// wait for their grade.
	setMadeUpGrades(t, db, 20)
	if _, err := db.SubmitMany(ctx, ps[20:]); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(ps); i += 7 {
		if _, _, err := db.Submit(ctx, ps[i]); err != nil { // repeats
			t.Fatal(err)
		}
	}
	if _, err := db.Secret(ctx); err != nil {
		t.Fatal(err)
	}
	for i, date := range []string{"2026-11-01", "2026-11-02"} {
		p, err := db.Puzzle(ctx, int64(3+i*10))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetDaily(ctx, date, p); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	people := fillPlayers(t, dsn)
	rows := archiveRows(t, dsn)
	var same, graded, repeated int
	for _, p := range rows {
		if p.SameAs != nil {
			same++
		}
		if p.GradeVersion != "" {
			graded++
		}
		if p.Submissions > 1 {
			repeated++
		}
	}
	if same == 0 || graded == 0 || graded == len(rows) || repeated == 0 {
		t.Fatalf("sample archive lacks a kind of row: %d rows, %d same_as, %d graded, %d repeated", len(rows), same, graded, repeated)
	}
	return rows, people
}

// copySource is what fillArchive returned when it made the copy tests'
// source archive, once per test process (copySourceAt).
var copySource struct {
	rows   []record.Puzzle
	people copyPeople
}

// copySourceAt writes at path (an SQLite file not there yet) the archive
// fillArchive fills, and returns its rows and people: a copy of one filled
// once per test process (sqlitetest), since rating its puzzles and making
// its players takes seconds under -race and TestCopy and TestCopyPostgres
// start from the same archive.
func copySourceAt(t *testing.T, path string) ([]record.Puzzle, copyPeople) {
	t.Helper()
	sqlitetest.WriteFrom(t, "copy-source", path, func(p string) error {
		copySource.rows, copySource.people = fillArchive(t, p)
		return nil
	})
	return copySource.rows, copySource.people
}

// copySamplePuzzles rates 40 17-clue puzzles, every fifth followed by
// the same puzzle written another way, and one with several solutions.
func copySamplePuzzles(t *testing.T) []record.Puzzle {
	t.Helper()
	rate := func(s string) record.Puzzle {
		t.Helper()
		g, err := sudoku.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var ps []record.Puzzle
	lines := puzzletest.Lines(t, puzzletest.SeventeenClue, 40)
	for i, line := range lines {
		ps = append(ps, rate(line[:81]))
		if i%5 == 0 { // the same puzzle written another way, later on
			ps = append(ps, rate(relabel(line[:81], 1+i)))
		}
	}
	return append(ps, rate("1"+strings.Repeat(".", 80))) // several solutions
}

// setMadeUpGrades grades puzzles 1 to n as the background grader stores
// grades, with made-up figures (the logical solver is slow under -race).
func setMadeUpGrades(t *testing.T, db *store.DB, n int64) {
	t.Helper()
	ctx := context.Background()
	var withGrades []record.Puzzle
	for id := int64(1); id <= n; id++ {
		p, err := db.Puzzle(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		p.SetGradeTenths(20 + id%7*10)
		p.GradeFloor = id%3 == 0
		p.Technique, p.GradeVersion = []string{"Naked Single", "X-Wing"}[id%2], logic.Version
		p.GradeEP, p.GradeED = record.FromTenths(10+id%5), record.FromTenths(10+id%3)
		p.Techniques = record.JoinTechniques([]string{"Full House", p.Technique})
		withGrades = append(withGrades, p)
	}
	if err := db.SetGrades(ctx, withGrades); err != nil {
		t.Fatal(err)
	}
}

// archiveExtras reads what a copy keeps beside the rows: the counters and
// the puzzles of the day.
func archiveExtras(t *testing.T, dsn string) (record.Stats, []store.DailyEntry, map[string][]byte) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.Dailies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := db.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s, d, m
}

var copySummaryRE = regexp.MustCompile(`^copied 48 puzzles, \d+ technique names, 5 players, 4 sessions, 2 tokens, 10 attempts, ` +
	`\d+ player grade rows, \d+ player technique rows, 2 class ratings, 1 hidden puzzle, 3 flags, \d+ audit entries, ` +
	`2 collections, 4 collection entries and 2 puzzles of the day in \d+\.\d\ds\n` +
	`verified: every row of 19 tables \(puzzles, puzzle_figures, classes, puzzle_techniques, technique_counts, technique_names, players, [a-z_, ]+, daily\), ` +
	`the counters and the settings are the same in both, in \d+\.\d\ds\n$`)

// copyArchive runs `sudoku copy` (the built binary: SQLite compiled to Go
// is many times slower inside a -race test binary) and checks its report.
func copyArchive(t *testing.T, from, to string) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), "copy", "--from", from, "--to", to)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || !copySummaryRE.MatchString(out.String()) {
		t.Fatalf("copy %s to %s: %v\nstdout %q\nstderr %q", from, to, err, &out, &errOut)
	}
}

// checkSameArchive fails t unless the archives at a and b hold the same
// rows, counters and puzzles of the day (as the store reads them), and
// the same rows of every table (verifyCopy, in this process).
func checkSameArchive(t *testing.T, want []record.Puzzle, a, b string) {
	t.Helper()
	if d := cmp.Diff(want, archiveRows(t, b), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("rows of %s (-source +copy):\n%s", b, d)
	}
	sa, da, ma := archiveExtras(t, a)
	sb, db, mb := archiveExtras(t, b)
	if len(ma) == 0 {
		t.Errorf("%s has no settings", a)
	}
	if d := cmp.Diff(ma, mb); d != "" {
		t.Errorf("settings (-source +copy):\n%s", d)
	}
	if d := cmp.Diff(sa, sb); d != "" {
		t.Errorf("stats (-source +copy):\n%s", d)
	}
	if d := cmp.Diff(da, db); d != "" {
		t.Errorf("puzzles of the day (-source +copy):\n%s", d)
	}
	ctx := context.Background()
	src, dst := openStore(t, a), openStore(t, b)
	if _, err := verifyCopy(ctx, src, dst, 0, func(int64, int64) {}); err != nil {
		t.Errorf("%s and %s differ: %v", a, b, err)
	}
}

// openStore opens the archive at dsn for the rest of the test.
func openStore(t *testing.T, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestCopy copies an archive between SQLite files: every row of every
// table the same, ids included, the counters and puzzles of the day too;
// a destination that is not empty is refused, a copy that differs is
// reported by table, key and column, and a server on the copy works as
// on the source.
func TestCopy(t *testing.T) {
	dir := t.TempDir()
	src, dst := dir+"/src.db", dir+"/dst.db"
	rows, people := copySourceAt(t, src)
	copyArchive(t, src, dst)
	checkSameArchive(t, rows, src, dst)

	_, _, err := runCmd(t, "", "copy", "--from", src, "--to", dst)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "holds 48 puzzles already: the destination must be an empty archive") {
		t.Errorf("copy into a full archive: %v, want a refusal", err)
	}
	// So is one with no puzzles but an account.
	other := dir + "/accounts.db"
	if _, _, err := runCmd(t, staffPassword+"\n", "user", "--db", other, "--create", "add", "ann"); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "", "copy", "--from", src, "--to", other)
	if err == nil || exitCode(err) != 1 || err.Error() != "copy: "+other+" holds 1 player already: the destination must be an empty archive" {
		t.Errorf("copy into an archive with an account: %v, want a refusal", err)
	}
	checkVerifyFinds(t, src, dst)

	// A source whose techniques are still being indexed is refused.
	raw, err := sql.Open("sqlite", src)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("INSERT INTO settings (name, value) VALUES ('technique_backfill', CAST('20' AS BLOB))"); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "", "copy", "--from", src, "--to", dst+".2")
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "the techniques of 18 puzzles of "+src+" are not indexed yet") {
		t.Errorf("copy of an archive not indexed: %v, want a refusal", err)
	}
	if _, err := raw.Exec("DELETE FROM settings WHERE name = 'technique_backfill'"); err != nil {
		t.Fatal(err)
	}

	checkCopyServes(t, dst, people, 51)
}

// checkVerifyFinds changes rows of the copy at dst (SQLite) one at a time
// and checks that verifyCopy names the table, the row's key and the
// column (want, a regular expression), then puts them back.
func checkVerifyFinds(t *testing.T, src, dst string) {
	t.Helper()
	ctx := context.Background()
	a, b := openStore(t, src), openStore(t, dst)
	raw, err := sql.Open("sqlite", dst)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct{ change, undo, want string }{
		{"UPDATE players SET name = 'Boss' WHERE id = 1", "UPDATE players SET name = 'boss' WHERE id = 1",
			`players: the row id=1 differs: name is "boss" in the source, "Boss" in the destination$`},
		// The audit's triggers refuse an update: dropped for the change.
		{"DROP TRIGGER audit_no_update; UPDATE audit SET reason = 'changed' WHERE id = 3",
			"UPDATE audit SET reason = '' WHERE id = 3; CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'audit entries are never changed'); END",
			`audit: the row id=3 differs: reason is "" in the source, "changed" in the destination$`},
		{"DELETE FROM sessions WHERE player_id = 3", "",
			"sessions: the row token_hash=x'[0-9a-f]{64}' is missing from the destination"},
		{"UPDATE puzzles SET hidden = 0 WHERE id = 13", "UPDATE puzzles SET hidden = 1 WHERE id = 13",
			"puzzles: the row id=13 differs: hidden is 1 in the source, 0 in the destination$"},
	} {
		exec(c.change)
		_, err := verifyCopy(ctx, a, b, 0, func(int64, int64) {})
		if err == nil || !regexp.MustCompile("^"+c.want).MatchString(err.Error()) {
			t.Errorf("verify after %s: %v, want %s", c.change, err, c.want)
		}
		if c.undo != "" {
			exec(c.undo)
		}
	}
}

// TestCopyPostgres moves an archive from SQLite to PostgreSQL and back:
// every row of every table, counter, puzzle of the day and setting
// arrives unchanged each way (the end equal to the start), and a server
// on the PostgreSQL copy takes the copied logins, tokens and sessions,
// keeps the hidden puzzle hidden, and numbers new puzzles, attempts,
// flags and audit entries after the copied ids.
func TestCopyPostgres(t *testing.T) {
	dir := t.TempDir()
	src, back := dir+"/src.db", dir+"/back.db"
	pg := pgtest.NewDB(t)
	rows, people := copySourceAt(t, src)
	copyArchive(t, src, pg)
	checkSameArchive(t, rows, src, pg)
	copyArchive(t, pg, back)
	checkSameArchive(t, rows, src, back)

	checkCopyServes(t, pg, people, 51)
	if _, _, err := runCmd(t, "", "copy", "--from", src, "--to", pg); err == nil || !strings.Contains(err.Error(), "must be an empty archive") {
		t.Errorf("copy into a full PostgreSQL archive: %v, want a refusal", err)
	}
}

func TestCopyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"copy"},
		{"copy", "--from", "a.db"},
		{"copy", "--from", "a.db", "--to", "a.db"},
		{"copy", "--from", "a.db", "--to", "b.db", "extra"},
	} {
		if _, _, err := runCmd(t, "", args...); exitCode(err) != 2 {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// BenchmarkCopyMillion copies the archive of a million synthetic puzzles
// the listing benchmarks use (SUDOKU_BENCH_ARCHIVE, or built first) with
// `sudoku copy`, verification included, into a new SQLite file and into a
// new PostgreSQL database (when pgtest can start a cluster), and reports
// puzzles per second for the whole command.
//
//	SUDOKU_BENCH_ARCHIVE=/tmp/m.db go test -run '^$' -bench CopyMillion -benchtime 1x ./cmd/sudoku
func BenchmarkCopyMillion(b *testing.B) {
	src := millionArchive(b)
	for _, to := range []string{"sqlite", "postgres"} {
		b.Run("to="+to, func(b *testing.B) {
			var c *pgtest.Cluster
			if to == "postgres" {
				c = pgtest.Start(b)
			}
			for b.Loop() {
				dst := filepath.Join(b.TempDir(), "copy.db")
				if c != nil {
					dst = c.NewDB(b)
				}
				var out, errOut strings.Builder
				if err := run(context.Background(), []string{"copy", "--from", src, "--to", dst}, func(string) string { return "" },
					strings.NewReader(""), &out, &errOut); err != nil {
					b.Fatalf("copy: %v\n%s%s", err, &out, &errOut)
				}
				b.Log(strings.TrimSpace(out.String()))
			}
			b.ReportMetric(float64(millionRows)*float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}
