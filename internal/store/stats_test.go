package store

import (
	"context"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// wantStats computes in Go what Stats must return for the stored puzzles ps.
func wantStats(ps []sudoku.Puzzle) sudoku.Stats {
	var s sudoku.Stats
	bump := func(h *[]int64, k int) {
		for len(*h) <= k {
			*h = append(*h, 0)
		}
		(*h)[k]++
	}
	for _, p := range ps {
		s.Total++
		if p.Unique {
			s.Unique++
		}
		s.Submissions += p.Submissions
		bump(&s.Backtracks, sudoku.BacktracksBucket(p.Backtracks))
		bump(&s.SolveTime, sudoku.SolveTimeBucket(p.SolveNS))
		bump(&s.Clues, p.Clues)
	}
	return s
}

func TestStats(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(sudoku.Stats{}, got); d != "" {
		t.Fatalf("empty archive (-want +got):\n%s", d)
	}
	byID := map[int64]sudoku.Puzzle{}
	for i, bt := range []int64{0, 0, 1, 2, 3, 15, 16, 63, 64, 127, 128, 5000, 1 << 40} {
		solutions := 1
		if i%4 == 3 {
			solutions = 2
		}
		p, _, err := db.Submit(ctx, synthetic(int64(i+1), bt, 700+int64(i)*int64(i)*150_000, solutions))
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
	var ps []sudoku.Puzzle
	for _, p := range byID {
		ps = append(ps, p)
	}
	got, err = db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := wantStats(ps)
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if want.Submissions != int64(len(ps))+3 {
		t.Errorf("submissions %d, want %d", want.Submissions, len(ps)+3)
	}
	// The band counts sum to the total and match BandOf.
	bands := make([]int64, len(sudoku.Bands))
	for _, p := range ps {
		for i, b := range sudoku.Bands {
			if b.Band == p.Band {
				bands[i]++
			}
		}
	}
	if d := gocmp.Diff(bands, got.BandCounts()); d != "" {
		t.Errorf("band counts (-want +got):\n%s", d)
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
		if want := sudoku.SolveTimeBucket(v); ns != want {
			t.Errorf("solve_ns %d: SQL bucket %d, Go %d", v, ns, want)
		}
	}
}

// TestStatsMigrationCountsOldRows checks that migration 00004 counts the
// puzzles a database held before it: the histograms of a file migrated with
// rows in it equal those kept by the triggers. It undoes 00005 and 00004
// by hand, then opens the file again.
func TestStatsMigrationCountsOldRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	db := MustOpenDBAt(t, path)
	var ps []sudoku.Puzzle
	for i := range int64(40) {
		p, _, err := db.Submit(ctx, synthetic(i+1, i*i, 1000+i*i*9000, 1+int(i%5)/4))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	for _, q := range []string{
		"DROP INDEX puzzles_band_submitted", "DROP INDEX puzzles_band_clues", "DROP INDEX puzzles_band_solve_ns",
		"ALTER TABLE puzzles DROP COLUMN band", "DELETE FROM goose_db_version WHERE version_id = 5",
		"DROP TRIGGER puzzles_stats_update", "DROP TRIGGER puzzles_stats_submissions",
		"DROP TRIGGER puzzles_stats_delete", "DROP TRIGGER puzzles_stats_insert",
		"DROP TRIGGER puzzles_count_insert", "DROP TRIGGER puzzles_count_delete",
		"CREATE TRIGGER puzzles_count_insert AFTER INSERT ON puzzles BEGIN UPDATE counts SET total = total + 1, uniq = uniq + (NEW.solutions = 1) WHERE id = 1; END",
		"CREATE TRIGGER puzzles_count_delete AFTER DELETE ON puzzles BEGIN UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1) WHERE id = 1; END",
		"ALTER TABLE counts DROP COLUMN submissions", "DROP TABLE stat_buckets", "DROP TABLE stat_edges",
		"DELETE FROM goose_db_version WHERE version_id = 4",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db = MustOpenDBAt(t, path)
	got, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(wantStats(ps), got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}
