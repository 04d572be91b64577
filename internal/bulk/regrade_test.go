package bulk

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestRegraderLogsProgress: while the regrade runs it logs a line every
// Every with how many puzzles it has graded, how many are left and its
// rate, then one when it is done (issue 50: an upgrade's regrade said
// nothing for hours). The first grade waits for the first progress line:
// an event, not a sleep.
func TestRegraderLogsProgress(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "regrade.db"))
	ps := pendingRows(t, db, puzzletest.Norvig, 6)
	ctx := context.Background()
	for i := range ps {
		logic.GradePuzzle(&ps[i])
		ps[i].GradeVersion = "old"
	}
	if err := db.SetGrades(ctx, ps); err != nil {
		t.Fatal(err)
	}
	logs := &records{line: make(chan slog.Record, 100)}
	var once sync.Once
	r := &Regrader{DB: db, Version: logic.Version, Workers: 1, Every: 5 * time.Millisecond, Log: slog.New(logs),
		Grade: func(p *record.Puzzle) {
			once.Do(func() { logs.wait(t, "regrading") })
			logic.GradePuzzle(p)
		}}
	n, err := r.Run(ctx)
	if err != nil || n != int64(len(ps)) {
		t.Fatalf("Run: %d, %v; want %d", n, err, len(ps))
	}
	progress := logs.find("regrading")
	for _, k := range []string{"done", "left", "per_second"} {
		if _, ok := progress[k]; !ok {
			t.Errorf("the progress line has no %s: %v", k, progress)
		}
	}
	if progress["left"].Int64() != int64(len(ps)) {
		t.Errorf("left %v before the first grade, want %d", progress["left"], len(ps))
	}
	if done := logs.find("regrade done"); done["puzzles"].Int64() != int64(len(ps)) {
		t.Errorf("regrade done: %v", done)
	}
	if left, err := db.CountStaleGrades(ctx, logic.Version); err != nil || left != 0 {
		t.Errorf("%d stale grades after the regrade, %v", left, err)
	}
}

// records is a slog.Handler that keeps what is logged.
type records struct {
	mu   sync.Mutex
	all  []slog.Record
	line chan slog.Record
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *records) WithGroup(string) slog.Handler            { return h }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.all = append(h.all, r.Clone())
	h.mu.Unlock()
	select {
	case h.line <- r.Clone():
	default:
	}
	return nil
}

// wait waits for a line whose message is msg.
func (h *records) wait(t *testing.T, msg string) {
	for {
		select {
		case r := <-h.line:
			if r.Message == msg {
				return
			}
		case <-time.After(30 * time.Second):
			t.Errorf("no %q line within 30 s", msg)
			return
		}
	}
}

// find returns the attributes of the first line whose message is msg.
func (h *records) find(msg string) map[string]slog.Value {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.all {
		if r.Message == msg {
			m := map[string]slog.Value{}
			r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value; return true })
			return m
		}
	}
	return nil
}
