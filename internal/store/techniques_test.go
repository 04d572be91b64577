package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// techniquesSuite is the suite's part for the search by technique
// (migration 00017), added to suite in suite_test.go.
var techniquesSuite = []suiteCase{
	{"TechniqueCounts", testTechniqueCounts},
	{"TechniqueRegrade", testTechniqueRegrade},
	{"TechniqueBackfill", testTechniqueBackfill},
	{"TechniqueMigration", testTechniqueMigration},
	{"TechniqueCountsHidden", testTechniqueCountsHidden},
}

// testTechniqueCountsHidden: a hidden puzzle is in no count (docs/moderation.md
// "Hidden puzzles"), the techniques' included, and hiding, restoring and
// deleting a hidden puzzle keep the counts and a technique's total exact.
func testTechniqueCountsHidden(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := techGradedArchive(t, db, 20)
	without := func(ids ...int64) []record.Puzzle {
		var ps []record.Puzzle
		for _, p := range all {
			if !slices.Contains(ids, p.ID) {
				ps = append(ps, p)
			}
		}
		return ps
	}
	a, b := all[3], all[11]
	total := func(name string) int64 {
		page, err := db.List(ctx, record.ListQuery{Techniques: record.Techniques(name)})
		if err != nil {
			t.Fatal(err)
		}
		return page.Total
	}
	name := a.Technique
	before := total(name)
	for _, id := range []int64{a.ID, b.ID} {
		if _, err := db.HidePuzzle(ctx, id, moderation.CLI(), "test"); err != nil {
			t.Fatal(err)
		}
	}
	checkTechniqueCounts(t, db, without(a.ID, b.ID))
	if got := total(name); got != before-1-boolInt(slices.Contains(b.Techniques.Names(), name)) {
		t.Errorf("total of %s with two puzzles hidden: %d, was %d", name, got, before)
	}
	if err := db.RestorePuzzle(ctx, a.ID, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, without(b.ID))
	if err := db.DeletePuzzle(ctx, b.ID, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, without(b.ID))
	if err := db.DeletePuzzle(ctx, a.ID, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, without(a.ID, b.ID))
}

// techGradedArchive archives n rated puzzles, half graded as they are
// submitted (the insert trigger) and half by SetGrades afterwards (the
// update trigger), and returns them as archived, in id order.
func techGradedArchive(t *testing.T, db *DB, n int) []record.Puzzle {
	t.Helper()
	ctx := context.Background()
	var ps []record.Puzzle
	for i, r := range puzzletest.RatedPuzzles(t, n) {
		g, _ := sudoku.Parse(r.Puzzle)
		p := rate(t, g)
		if i%2 == 0 {
			logic.GradePuzzle(&p)
		}
		ps = append(ps, p)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	pending, err := db.Ungraded(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pending {
		logic.GradePuzzle(&pending[i])
	}
	if err := db.SetGrades(ctx, pending); err != nil {
		t.Fatal(err)
	}
	return exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted, Desc: false})
}

// using returns the ids of the puzzles of ps whose path uses every one of
// names, sorted.
func using(ps []record.Puzzle, names ...string) []int64 {
	var out []int64
	for _, p := range ps {
		if !slices.ContainsFunc(names, func(n string) bool { return !slices.Contains(p.Techniques.Names(), n) }) {
			out = append(out, p.ID)
		}
	}
	slices.Sort(out)
	return out
}

// testTechniqueFilter: technique= keeps the puzzles whose path uses every
// technique named, in every order, both directions, page by page both
// ways, walked and driven, with exact totals, beside other filters; its
// cursors are its own; a technique no puzzle uses gives an empty page.
func testTechniqueFilter(t *testing.T, bk backend) {
	db := bk.open(t)
	all := techGradedArchive(t, db, 40)
	seen := map[string]bool{}
	var names []string
	for _, p := range all {
		for _, n := range p.Techniques.Names() {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) < 4 {
		t.Fatalf("only %d techniques in the archive: %v", len(names), names)
	}
	filters := [][]string{{names[0]}, {names[len(names)-1]}, {names[1], names[2]}, {names[len(names)-1], names[0]}}
	for _, walk := range []bool{false, true} {
		db.walkTechniques = walk
		for _, f := range filters {
			want := using(all, f...)
			for _, s := range record.Sorts {
				for _, desc := range []bool{false, true} {
					q := record.ListQuery{Sort: s, Desc: desc, Limit: 3, Techniques: record.JoinTechniques(f)}
					if got := walkPlayed(t, db, q, len(want)); !slices.Equal(got, want) {
						t.Errorf("walk=%v %v %s desc=%v: %v, want %v", walk, f, s, desc, got, want)
					}
				}
			}
		}
	}
	db.walkTechniques = false
	checkTechniqueFilterEdges(t, db, all, names, filters[2])
}

// checkTechniqueFilterEdges checks the technique filter beside the other
// filters, around a puzzle, its cursors, a technique no path used, and
// the export with filter f.
func checkTechniqueFilterEdges(t *testing.T, db *DB, all []record.Puzzle, names, f []string) {
	t.Helper()
	ctx := context.Background()
	// Beside the other filters: the total counts them all.
	hard := record.ListQuery{Techniques: record.JoinTechniques(names[:1]), GradeMin: 30, Distinct: true, Limit: 100}
	page, err := db.List(ctx, hard)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, p := range all {
		if slices.Contains(p.Techniques.Names(), names[0]) && p.GradeTenths() >= 30 && p.SameAs == nil {
			want = append(want, p.ID)
		}
	}
	if got := ids(page.Puzzles); page.Total != int64(len(want)) || len(got) != len(want) {
		t.Errorf("%s with grade >= 3.0, distinct: %v (total %d), want %v", names[0], got, page.Total, want)
	}
	// Around a puzzle in the listing, and one out of it.
	in, out := using(all, names[len(names)-1]), slices.DeleteFunc(ids(all), func(id int64) bool {
		return slices.Contains(using(all, names[len(names)-1]), id)
	})
	q := record.ListQuery{Techniques: record.JoinTechniques(names[len(names)-1:]), Around: in[0]}
	if page, err := db.List(ctx, q); err != nil || !slices.Contains(ids(page.Puzzles), in[0]) {
		t.Errorf("around %d = %v, %v", in[0], ids(page.Puzzles), err)
	}
	if len(out) > 0 {
		q.Around = out[0]
		if _, err := db.List(ctx, q); !errors.Is(err, record.ErrNotFound) {
			t.Errorf("around %d, not in the listing: %v, want ErrNotFound", out[0], err)
		}
	}

	// Cursors belong to their filter.
	first, err := db.List(ctx, record.ListQuery{Limit: 1, Techniques: record.JoinTechniques(names[:1])})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page = %+v, %v", first, err)
	}
	for _, c := range []record.ListQuery{
		{Limit: 1, Cursor: first.NextCursor},
		{Limit: 1, Cursor: first.NextCursor, Techniques: record.JoinTechniques(names[1:2])},
	} {
		if _, err := db.List(ctx, c); !errors.Is(err, record.ErrInvalidCursor) {
			t.Errorf("List(%+v) = %v, want ErrInvalidCursor", c, err)
		}
	}
	// A technique no path used: nothing, at once.
	page, err = db.List(ctx, record.ListQuery{Techniques: record.JoinTechniques([]string{names[0], "Dynamic Forcing Chains (+)"})})
	if err != nil || page.Total != 0 || len(page.Puzzles) != 0 || page.NextCursor != "" {
		t.Errorf("unused technique: %+v, %v", page, err)
	}
	// Export takes the filter too.
	got := ids(exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted, Techniques: record.JoinTechniques(f)}))
	slices.Sort(got)
	if want := using(all, f...); !slices.Equal(got, want) {
		t.Errorf("export %v: %v, want %v", f, got, want)
	}
}

// testTechniqueCounts: Techniques counts the puzzles of each technique
// and those that need it as their hardest; Practice lists the latter,
// easiest first; UsingTechnique the former.
func testTechniqueCounts(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := techGradedArchive(t, db, 40)
	checkTechniqueCounts(t, db, all)
	for _, tc := range []string{logic.HiddenSingle, logic.NakedPair, logic.Pointing} {
		ps, err := db.Practice(ctx, tc, 100)
		if err != nil {
			t.Fatal(err)
		}
		var want []record.Puzzle
		for _, p := range all {
			if p.Technique == tc {
				want = append(want, p)
			}
		}
		slices.SortStableFunc(want, func(a, b record.Puzzle) int { return int(a.GradeTenths() - b.GradeTenths()) })
		if !slices.Equal(ids(ps), ids(want)) {
			t.Errorf("Practice(%s) = %v, want %v", tc, ids(ps), ids(want))
		}
		u, err := db.UsingTechnique(ctx, tc, 2)
		if err != nil || len(u) != min(2, len(using(all, tc))) {
			t.Errorf("UsingTechnique(%s) = %v, %v", tc, ids(u), err)
		}
		for _, p := range u {
			if !slices.Contains(p.Techniques.Names(), tc) {
				t.Errorf("UsingTechnique(%s) gave puzzle %d of %v", tc, p.ID, p.Techniques.Names())
			}
		}
	}
	if _, err := db.Practice(ctx, logic.XWing, 0); !errors.Is(err, ErrInvalidQuery) {
		t.Errorf("Practice limit 0: %v", err)
	}
}

// checkTechniqueCounts compares db.Techniques with the puzzles all.
func checkTechniqueCounts(t *testing.T, db *DB, all []record.Puzzle) {
	t.Helper()
	got, err := db.Techniques(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]record.TechniqueCount{}
	for _, p := range all {
		for _, n := range p.Techniques.Names() {
			c := want[n]
			c.Name = n
			c.Puzzles++
			if n == p.Technique {
				c.Hardest++
			}
			want[n] = c
		}
	}
	have := map[string]record.TechniqueCount{}
	for _, c := range got {
		if c.Puzzles != 0 || c.Hardest != 0 {
			have[c.Name] = c
		}
	}
	if len(have) != len(want) {
		t.Errorf("Techniques() = %v, want %v", have, want)
	}
	for n, w := range want {
		if have[n] != w {
			t.Errorf("Techniques() %s = %+v, want %+v", n, have[n], w)
		}
	}
}

// testTechniqueRegrade: a puzzle whose grade is reset leaves the index
// and the counts; graded again, it comes back, moved; a deleted one
// leaves them.
func testTechniqueRegrade(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := techGradedArchive(t, db, 12)
	if _, err := db.ResetGrades(ctx, "another version"); err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, nil)
	pending, err := db.Ungraded(ctx, 0, 100)
	if err != nil || len(pending) != len(all) {
		t.Fatalf("%d pending, %v", len(pending), err)
	}
	for i := range pending {
		logic.GradePuzzle(&pending[i])
	}
	// The first one's path changes.
	pending[0].Techniques = record.JoinTechniques([]string{logic.FullHouse, logic.XWing})
	pending[0].Technique = logic.XWing
	all[0] = pending[0]
	if err := db.SetGrades(ctx, pending); err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, all)
	page, err := db.List(ctx, record.ListQuery{Techniques: record.JoinTechniques([]string{logic.XWing})})
	if err != nil || !slices.Contains(ids(page.Puzzles), all[0].ID) {
		t.Errorf("X-Wing after the regrade: %v, %v", ids(page.Puzzles), err)
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("DELETE FROM puzzles WHERE id = ?"), all[1].ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, slices.Delete(all, 1, 2))
}

// testTechniqueBackfill: an archive graded before migration 00017 (the
// index empty, the backfill marker set, as the migration leaves it) is
// indexed by IndexTechniques, with progress, exactly as the triggers
// would have; a second call has nothing to do.
func testTechniqueBackfill(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	all := techGradedArchive(t, db, 30)
	err := db.write(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{"DELETE FROM puzzle_techniques", "DELETE FROM technique_counts", "DELETE FROM technique_names"} {
			if _, err := tx.Exec(q); err != nil {
				return err
			}
		}
		_, err := tx.Exec(db.d.sql("INSERT INTO settings (name, value) VALUES (?, ?)"), backfillName, []byte("7999"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkTechniqueCounts(t, db, nil)
	if n, err := db.TechniquesToIndex(ctx); err != nil || n != int64(len(all)) {
		t.Fatalf("TechniquesToIndex = %d, %v; want %d", n, err, len(all))
	}
	var calls []int64
	n, err := db.IndexTechniques(ctx, func(done, total int64) {
		if total != int64(len(all)) {
			t.Errorf("progress total %d, want %d", total, len(all))
		}
		calls = append(calls, done)
	})
	if err != nil || n != int64(len(all)) || len(calls) != 2 || calls[1] != n {
		t.Fatalf("IndexTechniques = %d, %v; progress %v", n, err, calls)
	}
	checkTechniqueCounts(t, db, all)
	if n, err := db.IndexTechniques(ctx, nil); err != nil || n != 0 {
		t.Errorf("second IndexTechniques = %d, %v", n, err)
	}
	page, err := db.List(ctx, record.ListQuery{Techniques: record.JoinTechniques([]string{logic.HiddenSingle}), Limit: 100})
	if want := using(all, logic.HiddenSingle); err != nil || !slices.Equal(sortedCopy(ids(page.Puzzles)), want) {
		t.Errorf("after the backfill: %v, %v; want %v", ids(page.Puzzles), err, want)
	}
}

// testTechniqueMigration: an archive graded under migration 00016 gets
// the marker from 00017 and, once IndexTechniques has run, the index the
// triggers would have made; undoing 00017 and applying it again keeps every
// row.
func testTechniqueMigration(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	all := techGradedArchive(t, db, 20)
	db.Close()
	_, p, _ := rawMigrator(t, dsn)
	for _, step := range []func() error{
		func() error { _, err := p.DownTo(ctx, 16); return err },
		func() error { _, err := p.UpTo(ctx, 17); return err },
		func() error { _, err := p.DownTo(ctx, 16); return err },
		func() error { _, err := p.Up(ctx); return err },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	db = MustOpenDBAt(t, dsn)
	checkTechniqueCounts(t, db, nil)
	if n, err := db.IndexTechniques(ctx, nil); err != nil || n != int64(len(all)) {
		t.Fatalf("IndexTechniques = %d, %v; want %d", n, err, len(all))
	}
	checkTechniqueCounts(t, db, all)
}

func sortedCopy(s []int64) []int64 {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
