package bulk

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestGradersBusy: Busy counts the workers grading a puzzle at that moment
// (the metric sudoku_graders_busy): one while a grade is held, none once
// the pipeline has stopped.
func TestGradersBusy(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "busy.db"))
	pendingRows(t, db, puzzletest.Top1465, 3)
	ctx, cancel := context.WithCancel(context.Background())
	holding, release := make(chan struct{}), make(chan struct{})
	g := &Graders{DB: db, Workers: 1, Grade: func(p *record.Puzzle) {
		select {
		case holding <- struct{}{}:
			<-release
		default:
		}
		logic.GradePuzzle(p)
	}}
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	<-holding
	if n := g.Busy(); n != 1 {
		t.Errorf("Busy while the one worker grades: %d, want 1", n)
	}
	cancel()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := g.Busy(); n != 0 {
		t.Errorf("Busy after Run returned: %d, want 0", n)
	}
}
