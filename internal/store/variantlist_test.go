package store

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testVariantFilter: variant=NAME keeps the puzzles with every named
// variant, matched as whole names ("killer" is not "little-killer");
// "classic" keeps the puzzles without rules; each page's Total counts
// them, with the other filters too.
func testVariantFilter(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ids := map[string]int64{}
	for _, name := range []string{"killer-nogivens-1", "mix-5", "littlekiller-1", "thermo-1", "thermo-ambiguous"} {
		s, _, err := db.Submit(ctx, variantRow(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ids[name] = s.ID
	}
	for i, g := range []string{
		"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
		"52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
	} {
		grid, err := sudoku.Parse(g)
		if err != nil {
			t.Fatal(err)
		}
		p, err := record.Rate(grid, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := db.Submit(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		ids["classic"+string(rune('1'+i))] = s.ID
	}
	for _, c := range []struct {
		q    record.ListQuery
		want []string
	}{
		{record.ListQuery{Variant: "killer"}, []string{"killer-nogivens-1", "mix-5"}},
		{record.ListQuery{Variant: "asterisk,killer"}, []string{"mix-5"}},
		{record.ListQuery{Variant: "little-killer"}, []string{"littlekiller-1"}},
		{record.ListQuery{Variant: "thermo", UniqueOnly: true}, []string{"thermo-1"}},
		{record.ListQuery{Variant: "thermo", Sort: record.SortClues, Desc: true}, []string{"thermo-1", "thermo-ambiguous"}},
		{record.ListQuery{Variant: "x"}, nil},
		{record.ListQuery{Variant: "classic"}, []string{"classic1", "classic2"}},
		{record.ListQuery{Variant: "classic", UniqueOnly: true, Distinct: true}, []string{"classic1", "classic2"}},
	} {
		page, err := db.List(ctx, c.q)
		if err != nil {
			t.Fatalf("%+v: %v", c.q, err)
		}
		var got, want []int64
		for _, p := range page.Puzzles {
			got = append(got, p.ID)
		}
		for _, n := range c.want {
			want = append(want, ids[n])
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || page.Total != int64(len(want)) {
			t.Errorf("variant %q (unique %v): ids %v total %d, want %v (%v)", c.q.Variant, c.q.UniqueOnly, got, page.Total, want, c.want)
		}
	}
	checkVariantCursor(t, db)
	for _, bad := range []record.Variants{"nope", "classic,killer"} {
		if _, err := db.List(ctx, record.ListQuery{Variant: bad}); !errors.Is(err, ErrInvalidQuery) {
			t.Errorf("variant %q: %v, want ErrInvalidQuery", bad, err)
		}
	}
}

// testVariantNotGraded: a variant row is out of the grading queue, out
// of a classic solver's regrade and reset, and out of the classic
// engine's remeasure; it keeps record.VariantUngraded and no grade.
func testVariantNotGraded(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	v, _, err := db.Submit(ctx, variantRow(t, "arrow-1"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountUngraded(ctx); err != nil || n != 0 {
		t.Errorf("CountUngraded: %d, %v; want 0", n, err)
	}
	if ps, err := db.Ungraded(ctx, 0, 10); err != nil || len(ps) != 0 {
		t.Errorf("Ungraded: %d rows, %v; want none", len(ps), err)
	}
	if n, err := db.CountStaleGrades(ctx, "another-solver"); err != nil || n != 0 {
		t.Errorf("CountStaleGrades: %d, %v; want 0", n, err)
	}
	if ps, err := db.StaleGrades(ctx, "another-solver", 0, 10); err != nil || len(ps) != 0 {
		t.Errorf("StaleGrades: %d rows, %v; want none", len(ps), err)
	}
	if n, err := db.CountStale(ctx); err != nil || n != 0 {
		t.Errorf("CountStale (measured by the variant engine): %d, %v; want 0", n, err)
	}
	if ps, err := db.Stale(ctx, 0, 10); err != nil || len(ps) != 0 {
		t.Errorf("Stale: %d rows, %v; want none", len(ps), err)
	}
	if _, err := db.ResetGrades(ctx, "another-solver"); err != nil {
		t.Fatal(err)
	}
	got, err := db.Puzzle(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.GradeVersion != record.VariantUngraded || got.Grade != nil || got.GradeStatus != record.GradeNone {
		t.Errorf("after ResetGrades: version %q grade %v status %s; want %q, none", got.GradeVersion, got.Grade, got.GradeStatus, record.VariantUngraded)
	}
}

// checkVariantCursor: a page's cursor pages on under its variant filter
// and is refused under another one.
func checkVariantCursor(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	q := record.ListQuery{Variant: "killer", Limit: 1}
	first, err := db.List(ctx, q)
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page of killers: %v, next %q", err, first.NextCursor)
	}
	q.Cursor = first.NextCursor
	next, err := db.List(ctx, q)
	if err != nil || len(next.Puzzles) != 1 || next.Puzzles[0].ID == first.Puzzles[0].ID || next.Puzzles[0].Variant.List() == nil {
		t.Errorf("second page of killers: %+v, %v", next.Puzzles, err)
	}
	q.Variant = "thermo"
	if _, err := db.List(ctx, q); !errors.Is(err, record.ErrInvalidCursor) {
		t.Errorf("a killers' cursor under variant=thermo: %v, want ErrInvalidCursor", err)
	}
}

// testVariantBrowse: VariantCounts counts each variant's puzzles (a
// puzzle of two variants in each) and the variant rows, classic ones
// aside; RecentVariants gives the newest variants, newest first.
func testVariantBrowse(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	if byName, n, err := db.VariantCounts(ctx); err != nil || n != 0 || len(byName) != 0 {
		t.Fatalf("empty archive: %v, %d, %v; want none", byName, n, err)
	}
	if recent, err := db.RecentVariants(ctx, 5); err != nil || len(recent) != 0 {
		t.Fatalf("empty archive: recent %d, %v; want none", len(recent), err)
	}
	grid, err := sudoku.Parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	if err != nil {
		t.Fatal(err)
	}
	classic, err := record.Rate(grid, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Submit(ctx, classic); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	var ids []int64
	for _, name := range []string{"killer-nogivens-1", "mix-5", "thermo-1"} {
		s, _, err := db.Submit(ctx, variantRow(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, v := range s.Variant.List() {
			want[v]++
		}
		ids = append([]int64{s.ID}, ids...)
	}
	byName, n, err := db.VariantCounts(ctx)
	if err != nil || n != 3 || !maps.Equal(byName, want) || byName["killer"] != 2 {
		t.Errorf("VariantCounts: %v, %d, %v; want %v, 3", byName, n, err, want)
	}
	recent, err := db.RecentVariants(ctx, 2)
	if err != nil || len(recent) != 2 || recent[0].ID != ids[0] || recent[1].ID != ids[1] || recent[0].Rules == "" {
		t.Errorf("RecentVariants(2): %d rows, %v; want ids %v", len(recent), err, ids[:2])
	}
}
