package bulk

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestImportWritesOnlyWhatIsRated checks that an import holds the store's
// writer only to write, never while a puzzle of the batch is still being
// rated: a submission made while one slow puzzle of a batch is rated goes
// through at once, even though the batch's first puzzles are rated long
// before. (A server on the same file has only its busy timeout to wait.)
func TestImportWritesOnlyWhatIsRated(t *testing.T) {
	_, ps := collection(t, puzzletest.Kaggle, 5000)
	// The slow puzzle sits past the first few thousand of the batch.
	slow, err := sudoku.Parse(ps[3000])
	if err != nil {
		t.Fatal(err)
	}
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "lock.db"))
	before := map[sudoku.Grid]bool{} // the puzzles ahead of the slow one
	for _, line := range ps[:3000] {
		if g, err := sudoku.Parse(line); err == nil {
			before[g] = false
		}
	}
	var mu sync.Mutex
	left := len(before) // of them, not yet rated
	rating := make(chan struct{})
	release := make(chan struct{})
	rate := func(g sudoku.Grid, opt sudoku.Options) (record.Puzzle, error) {
		if g == slow {
			close(rating)
			<-release
		}
		p, err := record.Rate(g, opt)
		mu.Lock()
		if rated, ok := before[g]; ok && !rated {
			before[g] = true
			left--
		}
		mu.Unlock()
		return p, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := Import(context.Background(), db, []Input{{"k", strings.NewReader(strings.Join(ps, "\n"))}},
			Options{BatchSize: 4096, rate: rate})
		done <- err
	}()
	<-rating
	waitFor(t, "the puzzles ahead of the slow one rated", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return left == 0
	})

	p := mustRate(t, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	// The slow puzzle is released only after the submission returns: an
	// import holding the writer would keep it waiting until the deadline.
	// The deadline is far beyond a write's time, even under -race on a
	// loaded machine, so that only a held writer meets it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	start := time.Now()
	_, _, err = db.Submit(ctx, p)
	cancel()
	waited := time.Since(start)
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("import: %v", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a submission while the import rated a slow puzzle waited %v (err %v): the import held the writer", waited.Round(time.Millisecond), err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func mustRate(t *testing.T, s string) record.Puzzle {
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
