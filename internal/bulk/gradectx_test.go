package bulk

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestGradeCtxStops: a grade made with GradeCtx (as the server's graders
// make logic.GradeDeep's) that the context's end stops leaves its row
// pending, not committed with a half grade; the rows graded before it keep
// their grades.
func TestGradeCtxStops(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "gradectx.db"))
	ps := pendingRows(t, db, puzzletest.Top1465, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := &Graders{DB: db, Workers: 1, Group: 1, Poll: time.Hour, GradeCtx: func(c context.Context, p *record.Puzzle) bool {
		if p.ID != ps[len(ps)-1].ID {
			return logic.GradeDeep(c, p)
		}
		cancel() // the server stops while the last one is graded
		<-c.Done()
		return logic.GradeDeep(c, p)
	}}
	if err := g.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for i, p := range ps {
		got, err := db.Puzzle(context.Background(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := i == len(ps)-1
		if last && (got.GradeStatus != record.GradePending || got.Grade != nil) {
			t.Errorf("the stopped row: status %s grade %v, want pending", got.GradeStatus, got.Grade)
		}
		if !last && (got.GradeStatus != record.GradeDone || got.Grade == nil) {
			t.Errorf("row %d: status %s, want done", i, got.GradeStatus)
		}
	}
}
