package bulk

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// fullDisk is an archive whose commits of grades fail as on a full disk
// while full is set (a fault-injecting writer).
type fullDisk struct {
	busyOnce
	full    atomic.Bool
	commits atomic.Int64 // SetGrades calls
	graded  atomic.Int64 // rows in them
}

func (f *fullDisk) SetGrades(ctx context.Context, ps []record.Puzzle) error {
	f.commits.Add(1)
	f.graded.Add(int64(len(ps)))
	if f.full.Load() {
		return fmt.Errorf("set %d grades: %w", len(ps), store.ErrFull)
	}
	return f.busyOnce.SetGrades(ctx, ps)
}

// TestGradersBackOffOnFullDisk: while every commit of grades fails (a
// full disk), the graders stop handing rows out, wait longer each time
// (doubling up to MaxBackoff), report the error once per wait rather than
// once per group, and say they are degraded; once the disk has room the
// next try grades the rest and the state clears.
func TestGradersBackOffOnFullDisk(t *testing.T) {
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "full.db"))
	ps := pendingRows(t, db, puzzletest.Kaggle, 300)
	f := &fullDisk{busyOnce: busyOnce{db: db}}
	f.full.Store(true)
	var mu sync.Mutex
	var reports []string
	g := &Graders{DB: f, Workers: 2, Group: 4, Grade: logic.GradePuzzle, Poll: 10 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
		OnError: func(err error) { mu.Lock(); reports = append(reports, err.Error()); mu.Unlock() }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- g.Run(ctx) }()
	nreports := func() int { mu.Lock(); defer mu.Unlock(); return len(reports) }
	waitFor(t, "six back-offs", func() bool { return nreports() >= 6 })
	if reason, since := g.Degraded(); !strings.Contains(reason, "full") || since.IsZero() {
		t.Errorf("Degraded while full: %q since %v", reason, since)
	}
	mu.Lock()
	got := append([]string(nil), reports...)
	mu.Unlock()
	if !strings.Contains(got[0], "paused for 10ms") || !strings.Contains(got[len(got)-1], "paused for 80ms") {
		t.Errorf("waits do not double up to the bound: %q ... %q", got[0], got[len(got)-1])
	}
	// Each back-off costs at most what was in the workers' hands when
	// the commit failed, not a sweep of the whole queue.
	if per := f.graded.Load() / int64(len(got)+1); per > 4*int64(g.Group) {
		t.Errorf("%d rows graded per back-off while the disk is full, want a few groups at most", per)
	}
	f.full.Store(false)
	waitFor(t, "the queue to empty", func() bool { n, _ := db.CountUngraded(context.Background()); return n == 0 })
	if reason, _ := g.Degraded(); reason != "" {
		t.Errorf("still degraded after the disk had room: %q", reason)
	}
	cancel()
	<-done // Run's error is the first failed commit's: already seen
	for _, p := range ps[:5] {
		if got, err := db.Puzzle(context.Background(), p.ID); err != nil || got.GradeStatus != record.GradeDone {
			t.Errorf("puzzle %d: %s (%v)", p.ID, got.GradeStatus, err)
		}
	}
}

// waitFor polls cond until it holds, failing t after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
