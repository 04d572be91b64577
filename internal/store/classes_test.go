package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// shuffled returns a random way of writing the same puzzle: bands, stacks,
// rows in bands and columns in stacks reordered, maybe transposed, digits
// relabelled.
func shuffled(rng *rand.Rand, g sudoku.Grid) sudoku.Grid {
	t := sudoku.Identity
	lines := func() [9]uint8 {
		var p [9]uint8
		outer := rng.Perm(3)
		for b := range 3 {
			inner := rng.Perm(3)
			for i := range 3 {
				p[b*3+i] = uint8(outer[b]*3 + inner[i])
			}
		}
		return p
	}
	t.Rows, t.Cols, t.Transposed = lines(), lines(), rng.IntN(2) == 1
	for i, d := range rng.Perm(9) {
		t.Digits[i+1] = uint8(d + 1)
	}
	return t.Apply(g)
}

func rate(tb testing.TB, g sudoku.Grid) record.Puzzle {
	tb.Helper()
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		tb.Fatalf("rate %s: %v", g, err)
	}
	return p
}

// testClasses submits puzzles and other ways of writing them, one at a time
// and in bulk, and checks that each entry names the first of its class, that
// the class is found by its canonical form, and that the distinct listing
// and counts see one row per puzzle.
func testClasses(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(1, 2))
	firsts := submitFirstEntries(t, db, puzzletest.Lines(t, puzzletest.Top1465, 6))
	submitOtherWritings(t, db, rng, firsts)
	for _, f := range firsts {
		checkClassOf(t, db, f)
	}
	if _, err := db.ByCanonical(ctx, sudoku.Grid{1}); err == nil {
		t.Error("found a class that is not archived")
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 24 || st.Distinct != 6 {
		t.Errorf("stats: %d entries, %d distinct; want 24, 6", st.Total, st.Distinct)
	}
	for _, q := range []record.ListQuery{
		{Distinct: true, Limit: 4}, {Distinct: true, Limit: 4, Sort: record.SortClues},
		{Distinct: true, Limit: 4, Band: firsts[0].Band}, {Distinct: true, UniqueOnly: true, Limit: 5, Sort: record.SortGrade},
	} {
		checkDistinctListing(t, db, q)
	}
}

// testClassesSideBySide submits four new ways of writing each of four
// puzzles none archived, all at once, so that group commits carry several
// of one new class (on PostgreSQL, the closing statement's class upkeep): each row
// names the first entry of its class, and the counters count four classes.
func testClassesSideBySide(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(3, 4))
	seen := make(map[sudoku.Grid]bool)
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(t, puzzletest.Top1465, 4) {
		g, _ := sudoku.Parse(line)
		for len(ps)%4 != 0 || !seen[g] {
			w := shuffled(rng, g)
			if !seen[w] {
				seen[w] = true
				ps = append(ps, rate(t, w))
			}
			seen[g] = true
		}
	}
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = db.Submit(ctx, ps[i])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkArchiveClasses(t, db)
	checkCounters(t, db)
	st, err := db.Stats(ctx)
	if err != nil || st.Total != int64(len(ps)) || st.Distinct != 4 {
		t.Errorf("stats: %d entries, %d distinct, %v; want %d, 4", st.Total, st.Distinct, err, len(ps))
	}
}

// submitFirstEntries submits each line as the first entry of its class.
func submitFirstEntries(t *testing.T, db *DB, lines []string) []record.Puzzle {
	t.Helper()
	var firsts []record.Puzzle
	for _, line := range lines {
		g, _ := sudoku.Parse(line)
		p, dup, err := db.Submit(context.Background(), rate(t, g))
		if err != nil || dup || p.SameAs != nil {
			t.Fatalf("first entry: dup %v, same_as %v, %v", dup, p.SameAs, err)
		}
		firsts = append(firsts, p)
	}
	return firsts
}

// submitOtherWritings submits one other way of writing each first entry,
// alone; then two more of each in one bulk write, where the second of a
// class in the same transaction links to the first archived one too.
func submitOtherWritings(t *testing.T, db *DB, rng *rand.Rand, firsts []record.Puzzle) {
	t.Helper()
	ctx := context.Background()
	var bulk []record.Puzzle
	for _, f := range firsts {
		p, dup, err := db.Submit(ctx, rate(t, shuffled(rng, f.Givens)))
		if err != nil || dup {
			t.Fatalf("second entry: dup %v, %v", dup, err)
		}
		if p.SameAs == nil || *p.SameAs != f.ID || p.Canonical != f.Canonical {
			t.Errorf("puzzle %d: same_as %v, want %d", p.ID, p.SameAs, f.ID)
		}
		bulk = append(bulk, rate(t, shuffled(rng, f.Givens)), rate(t, shuffled(rng, f.Givens)))
	}
	if _, err := db.SubmitMany(ctx, bulk); err != nil {
		t.Fatal(err)
	}
}

// checkClassOf checks that the first entry f has its three other writings
// as equivalents, each naming f and measured as f is, and that its
// canonical form finds f.
func checkClassOf(t *testing.T, db *DB, f record.Puzzle) {
	t.Helper()
	ctx := context.Background()
	eq, err := db.Equivalents(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(eq) != 4 || eq[0].ID != f.ID {
		t.Fatalf("puzzle %d: %d equivalents, want 4 with itself first", f.ID, len(eq))
	}
	for _, e := range eq[1:] {
		if e.SameAs == nil || *e.SameAs != f.ID {
			t.Errorf("puzzle %d: same_as %v, want %d", e.ID, e.SameAs, f.ID)
		}
		if e.Backtracks != f.Backtracks || e.Guesses != f.Guesses || e.Nodes != f.Nodes || e.Band != f.Band {
			t.Errorf("puzzle %d measured %d/%d/%d %s, its first entry %d/%d/%d %s", e.ID,
				e.Backtracks, e.Guesses, e.Nodes, e.Band, f.Backtracks, f.Guesses, f.Nodes, f.Band)
		}
	}
	got, err := db.ByCanonical(ctx, f.Canonical)
	if err != nil || got.ID != f.ID {
		t.Errorf("by canonical form: %d, %v; want %d", got.ID, err, f.ID)
	}
}

// checkDistinctListing pages through a distinct listing of the six classes
// of testClasses: no other way of writing is listed, and (without a band)
// the total and the rows are six.
func checkDistinctListing(t *testing.T, db *DB, q record.ListQuery) {
	t.Helper()
	var ids []int64
	for {
		page, err := db.List(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Puzzles {
			if p.SameAs != nil {
				t.Errorf("%+v: listed puzzle %d, another way of writing %d", q, p.ID, *p.SameAs)
			}
			ids = append(ids, p.ID)
		}
		if q.Band == "" && page.Total != 6 {
			t.Errorf("%+v: total %d, want 6", q, page.Total)
		}
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	if q.Band == "" && len(ids) != 6 {
		t.Errorf("%+v: %d puzzles listed, want 6", q, len(ids))
	}
}

// testClassesGrouped: a bulk write looks classes up classGroup at a time;
// every puzzle of a group gets its own class's first entry, or none for a
// class not archived yet.
func testClassesGrouped(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(5, 6))
	lines := puzzletest.Lines(t, puzzletest.Kaggle, 3*classGroup(sqliteDialect))
	var firsts, more []record.Puzzle
	for i, line := range lines {
		g, _ := sudoku.Parse(line)
		if i%3 == 0 {
			more = append(more, rate(t, g)) // a class of its own
			continue
		}
		firsts = append(firsts, rate(t, g))
	}
	dup, err := db.AddMany(ctx, firsts)
	if err != nil || slices.Contains(dup, true) {
		t.Fatalf("first entries: duplicates %v, %v", dup, err)
	}
	byCanonical := map[sudoku.Grid]int64{}
	for _, p := range firsts {
		if p.SameAs != nil {
			t.Fatalf("first entry %s: same_as %d", p.Givens, *p.SameAs)
		}
		s, err := db.PuzzleByGivens(ctx, p.Givens)
		if err != nil {
			t.Fatal(err)
		}
		byCanonical[p.Canonical] = s.ID
	}
	for _, f := range firsts {
		more = append(more, rate(t, shuffled(rng, f.Givens)))
	}
	rng.Shuffle(len(more), func(i, j int) { more[i], more[j] = more[j], more[i] })
	if _, err := db.AddMany(ctx, more); err != nil {
		t.Fatal(err)
	}
	for _, p := range more {
		want, ok := byCanonical[p.Canonical]
		switch {
		case !ok && p.SameAs != nil:
			t.Errorf("%s, of a new class: same_as %d", p.Givens, *p.SameAs)
		case ok && (p.SameAs == nil || *p.SameAs != want):
			t.Errorf("%s: same_as %v, want %d", p.Givens, p.SameAs, want)
		}
	}
}

// testKnownClasses: the writer files a class's later puzzles by what it
// found before (knownClasses), and a batch rolled back teaches it nothing:
// a class started in that batch is started again by the next puzzle of it.
func testKnownClasses(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	rng := rand.New(rand.NewPCG(7, 8))
	lines := puzzletest.Lines(t, puzzletest.Top1465, 2)
	ga, _ := sudoku.Parse(lines[0])
	gb, _ := sudoku.Parse(lines[1])
	a, _, err := db.Submit(ctx, rate(t, ga))
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add([]record.Puzzle{rate(t, shuffled(rng, ga)), rate(t, gb)}); err != nil {
		t.Fatal(err)
	}
	b.Rollback()
	addKnownClassSteps(t, db, rng, a.ID, ga, gb)
	checkNewClassTwice(t, db, rng)
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 11 || st.Distinct != 4 {
		t.Errorf("stats: %d entries, %d distinct; want 11, 4", st.Total, st.Distinct)
	}
}

// addKnownClassSteps makes one write per step of a puzzle of b's class
// (gb) and one of a's (ga, archived as aID): the first finds a's class by a statement, the later
// ones know it; b's class starts with the first of its puzzles that is
// committed.
func addKnownClassSteps(t *testing.T, db *DB, rng *rand.Rand, aID int64, ga, gb sudoku.Grid) {
	t.Helper()
	ctx := context.Background()
	var bFirst int64
	for step := range 3 {
		ps := []record.Puzzle{rate(t, shuffled(rng, gb)), rate(t, shuffled(rng, ga))}
		dup, err := db.AddMany(ctx, ps)
		if err != nil || slices.Contains(dup, true) {
			t.Fatalf("step %d: duplicates %v, %v", step, dup, err)
		}
		stored, err := db.PuzzleByGivens(ctx, ps[0].Givens)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case step == 0 && stored.SameAs != nil:
			t.Fatalf("step 0: the first of b's class committed has same_as %d", *stored.SameAs)
		case step == 0:
			bFirst = stored.ID
		case stored.SameAs == nil || *stored.SameAs != bFirst:
			t.Errorf("step %d: b's puzzle %d has same_as %v, want %d", step, stored.ID, stored.SameAs, bFirst)
		}
		if ps[1].SameAs == nil || *ps[1].SameAs != aID {
			t.Errorf("step %d: a's puzzle has same_as %v, want %d", step, ps[1].SameAs, aID)
		}
	}
}

// checkNewClassTwice meets a new class twice in one transaction: in one
// write, and in two parts of one batch. The second of each is filed under
// the first.
func checkNewClassTwice(t *testing.T, db *DB, rng *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	more := puzzletest.Lines(t, puzzletest.Top1465, 4)[2:]
	gc, _ := sudoku.Parse(more[0])
	gd, _ := sudoku.Parse(more[1])
	twice := []record.Puzzle{rate(t, gc), rate(t, shuffled(rng, gc))}
	if _, err := db.AddMany(ctx, twice); err != nil {
		t.Fatal(err)
	}
	bt, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	parts := [][]record.Puzzle{{rate(t, gd)}, {rate(t, shuffled(rng, gd))}}
	for _, part := range parts {
		if err := bt.Add(part); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bt.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]sudoku.Grid{{twice[0].Givens, twice[1].Givens}, {parts[0][0].Givens, parts[1][0].Givens}} {
		first, err := db.PuzzleByGivens(ctx, pair[0])
		if err != nil {
			t.Fatal(err)
		}
		second, err := db.PuzzleByGivens(ctx, pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if first.SameAs != nil || second.SameAs == nil || *second.SameAs != first.ID {
			t.Errorf("a new class twice in one transaction: same_as %v and %v, want none and %d", first.SameAs, second.SameAs, first.ID)
		}
	}
}
