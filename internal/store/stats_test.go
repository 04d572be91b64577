package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

func testStats(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(record.Stats{}, got); d != "" {
		t.Fatalf("empty archive (-want +got):\n%s", d)
	}
	byID := map[int64]record.Puzzle{}
	for i, bt := range []int64{0, 0, 1, 2, 3, 15, 16, 63, 64, 127, 128, 5000, 1 << 40} {
		solutions := 1
		if i%4 == 3 {
			solutions = 2
		}
		p := synthetic(int64(i+1), bt, 700+int64(i)*int64(i)*150_000, solutions)
		if i%5 != 2 { // every 5th waits for its grade
			p.GradeVersion, p.Technique = "test", "t"
			if solutions == 1 {
				p.SetGradeTenths([]int64{12, 23, 40, 0, 56, 72, 35, 0, 95, 20, 66, 0, 67}[i])
			}
		}
		p, _, err := db.Submit(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		byID[p.ID] = p
	}
	// Duplicates count as submissions, not puzzles.
	for _, i := range []int64{1, 1, 5} {
		p, dup, err := db.Submit(ctx, synthetic(i, 0, 1, 1))
		if err != nil || !dup {
			t.Fatalf("resubmit %d: dup %v, %v", i, dup, err)
		}
		byID[p.ID] = p
	}
	var ps []record.Puzzle
	for _, p := range byID {
		ps = append(ps, p)
	}
	got, err = db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := storetest.StatsOf(ps)
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if want.Submissions != int64(len(ps))+3 {
		t.Errorf("submissions %d, want %d", want.Submissions, len(ps)+3)
	}
	// The band counts are exact: every entry with a grade in its band's
	// range, those without a grade (several solutions, or waiting for it)
	// in none; and a listing of each band says the same total.
	bands := make([]int64, len(sudoku.Bands))
	none := 0
	for _, p := range ps {
		if r := sudoku.BandOf(p.GradeTenths()).Rank(); r >= 0 {
			bands[r]++
		} else {
			none++
		}
	}
	if d := gocmp.Diff(bands, got.BandCounts()); d != "" {
		t.Errorf("band counts (-want +got):\n%s", d)
	}
	if none == 0 || slices.Contains(bands, 0) {
		t.Fatalf("bands %v, %d without: the test archive is wrong", bands, none)
	}
	for i, b := range sudoku.Bands {
		page, err := db.List(ctx, record.ListQuery{Band: b.Band, Limit: 1})
		if err != nil || page.Total != bands[i] {
			t.Errorf("band %s: total %d (%v), want %d", b.Band, page.Total, err, bands[i])
		}
	}
}

// TestStatsEdgesAgree checks that the bucket edges of migration 00004 put
// every value in the bucket the Go functions name.
func TestStatsEdgesAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	MustOpenDBAt(t, path)
	raw := rawDB(t, path)
	var values []int64
	for v := int64(1); v < 1<<50; v *= 2 {
		values = append(values, v-1, v, v+1)
	}
	for p := int64(1); p < 1e13; p *= 10 {
		values = append(values, p-1, p, 2*p-1, 2*p, 5*p-1, 5*p, 3*p)
	}
	for _, v := range values {
		var bt, ns int
		err := raw.QueryRow(`SELECT (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= ?1 ORDER BY lo DESC LIMIT 1),
			(SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= ?1 ORDER BY lo DESC LIMIT 1)`, v).Scan(&bt, &ns)
		if err != nil {
			t.Fatal(err)
		}
		if want := sudoku.BacktracksBucket(v); bt != want {
			t.Errorf("backtracks %d: SQL bucket %d, Go %d", v, bt, want)
		}
		if want := record.SolveTimeBucket(v); ns != want {
			t.Errorf("solve_ns %d: SQL bucket %d, Go %d", v, ns, want)
		}
	}
}

// TestStatsMigrationCountsOldRows checks that migration 00004 counts the
// puzzles a database held before it, and that the later migrations keep
// the counts: the histograms of a file written at schema version 3 and then
// opened equal those of the same puzzles submitted to a new archive.
func TestStatsMigrationCountsOldRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	raw := rawDB(t, path)
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	var ps []record.Puzzle
	for i := range int64(40) {
		q := synthetic(i+1, i*i, 1000+i*i*9000, 1+int(i%5)/4)
		if _, err := raw.Exec(`INSERT INTO puzzles (givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1)`, q.Givens.String(), q.Solution.String(), q.Clues, q.Solutions,
			q.Backtracks, q.Guesses, q.Nodes, q.SolveNS, q.EngineVersion); err != nil {
			t.Fatal(err)
		}
		q.Submissions = 1
		q.Canonical = sudoku.Grid{} // written before migration 00007
		ps = append(ps, q)
	}
	raw.Close()
	db := MustOpenDBAt(t, path)
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(storetest.StatsOf(ps), got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

// TestStatsSubmitMany: the counters the store keeps for batches (migration
// 00006) agree with the rows, whatever mix of new puzzles, repeats within a
// batch and repeats of earlier batches or single submissions went in.
func testStatsSubmitMany(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p := func(n int64) record.Puzzle {
		return synthetic(n, n*n%700, 500+n*n*n*37, 1+int(n%7)/6)
	}
	if _, _, err := db.Submit(ctx, p(3)); err != nil {
		t.Fatal(err)
	}
	var batch []record.Puzzle
	for n := range int64(150) { // 1..150, then 1..40 again in the same batch
		batch = append(batch, p(n+1))
	}
	for n := range int64(40) {
		batch = append(batch, p(n+1))
	}
	dup, err := db.SubmitMany(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range dup {
		if want := i >= 150 || i == 2; d != want {
			t.Errorf("puzzle %d of the batch: duplicate %v, want %v", i+1, d, want)
		}
	}
	if _, err := db.SubmitMany(ctx, []record.Puzzle{p(151), p(7), p(151)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Submit(ctx, p(152)); err != nil {
		t.Fatal(err)
	}
	rows := exportAll(t, db, record.ListQuery{})
	if len(rows) != 152 {
		t.Fatalf("%d rows, want 152", len(rows))
	}
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := storetest.StatsOf(rows)
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if want.Submissions != 1+190+3+1 {
		t.Errorf("submissions %d, want %d", want.Submissions, 1+190+3+1)
	}
}

// TestBuildArchive: the benchmarks' archive builder writes rows around the
// store; its archive must still be whole: counters that agree with the
// rows, and givens keys that make a resubmission a duplicate.
func TestBuildArchive(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "built.db")
	if err := buildArchive(path, 3000); err != nil {
		t.Fatal(err)
	}
	db := MustOpenDBAt(t, path)
	rows := exportAll(t, db, record.ListQuery{})
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(storetest.StatsOf(rows), got); d != "" || len(rows) != 3000 {
		t.Fatalf("%d rows; stats (-want +got):\n%s", len(rows), d)
	}
	for i := range rows[:100] {
		rows[i].Canonical = rows[i].Givens // as Synthetic does; the builder writes none
	}
	dup, err := db.SubmitMany(ctx, rows[:100])
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range dup {
		if !d {
			t.Fatalf("row %d resubmitted: not a duplicate", i+1)
		}
	}
}
