package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestAddMany: AddMany archives what is new and leaves what is archived
// already, repeats within ps included, with no submission counted.
func testAddMany(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := norvig(t, 3)
	if _, _, err := db.Submit(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	dup, err := db.AddMany(ctx, append(ps, ps[1]))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, false, false, true}, dup); diff != "" {
		t.Errorf("duplicates (-want +got):\n%s", diff)
	}
	n := 0
	err = db.Export(ctx, record.ListQuery{Sort: record.SortSubmitted}, func(p record.Puzzle) error {
		n++
		if p.Submissions != 1 {
			t.Errorf("puzzle %s: %d submissions, want 1", p.Givens, p.Submissions)
		}
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("export: %d puzzles, %v; want 3", n, err)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 3 || st.Submissions != 3 {
		t.Errorf("stats: %d puzzles, %d submissions; want 3 and 3", st.Total, st.Submissions)
	}
}

// TestAddParts: AddParts is AddMany over parts of one transaction. It
// counts the duplicates (archived before, or earlier in another part) and
// the equivalents (of a class archived before, or new in an earlier part),
// and an error from a part rolls back every part.
func TestAddParts(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	rng := rand.New(rand.NewPCG(3, 4))
	ps := norvig(t, 3)
	if _, _, err := db.Submit(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	parts := [][]record.Puzzle{
		{ps[0], ps[1], rate(t, shuffled(rng, ps[0].Givens))}, // dup, new, equivalent of an archived class
		{ps[1], rate(t, shuffled(rng, ps[1].Givens)), ps[2]}, // dup in the batch, equivalent of a new class, new
	}
	dup, same, err := db.AddParts(ctx, slices.Values(parts))
	if err != nil {
		t.Fatal(err)
	}
	if dup != 2 || same != 2 {
		t.Errorf("duplicates, equivalents = %d, %d; want 2, 2", dup, same)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 5 || st.Submissions != 5 {
		t.Errorf("stats: %d puzzles, %d submissions; want 5 and 5", st.Total, st.Submissions)
	}

	bad := ps[2]
	bad.Solution[0] = 0
	more := [][]record.Puzzle{{rate(t, shuffled(rng, ps[2].Givens))}, {bad}}
	if _, _, err := db.AddParts(ctx, slices.Values(more)); !errors.Is(err, ErrInvalidPuzzle) {
		t.Fatalf("a bad part: err = %v, want ErrInvalidPuzzle", err)
	}
	if st, err := db.Stats(ctx); err != nil || st.Total != 5 {
		t.Errorf("after a failed batch: %d puzzles (%v), want 5", st.Total, err)
	}
}

// testFreshListings runs many listings at once, each of a kind not listed
// before, so that each prepares its statement while it holds a reading
// connection: far more of them than the pool has connections must all
// answer (a listing once waited for a free connection to prepare on while
// holding one, and with every connection held so, none went on).
func testFreshListings(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := db.AddMany(ctx, norvig(t, 5)); err != nil {
		t.Fatal(err)
	}
	var queries []record.ListQuery
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, distinct := range []bool{false, true} {
					queries = append(queries, record.ListQuery{Sort: s, Desc: desc, UniqueOnly: unique, Distinct: distinct, Limit: 3})
				}
			}
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(queries))
	for i, q := range queries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			page, err := db.List(ctx, q)
			if err == nil && len(page.Puzzles) != 3 {
				err = fmt.Errorf("%d puzzles, want 3", len(page.Puzzles))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%+v: %v", queries[i], err)
		}
	}
}
