package archive

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// memStore is a Store in memory: puzzles by givens.
type memStore struct {
	mu      sync.Mutex
	puzzles []record.Puzzle
}

func (m *memStore) Submit(_ context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, q := range m.puzzles {
		if q.Givens == p.Givens {
			m.puzzles[i].Submissions++
			return m.puzzles[i], true, nil
		}
	}
	p.ID, p.Submissions = int64(len(m.puzzles)+1), 1
	m.puzzles = append(m.puzzles, p)
	return p, false, nil
}

func (m *memStore) SubmitMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
	dup := make([]bool, len(ps))
	for i, p := range ps {
		var err error
		if _, dup[i], err = m.Submit(ctx, p); err != nil {
			return nil, err
		}
	}
	return dup, nil
}

func (m *memStore) Daily(context.Context, string) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}

func (m *memStore) SetDaily(_ context.Context, _ string, p record.Puzzle) (record.Puzzle, error) {
	return p, nil
}

func (m *memStore) DailySecret(context.Context) ([]byte, error) {
	return []byte("0123456789abcdef0123456789abcdef"), nil
}

func (m *memStore) PuzzleByGivens(_ context.Context, g sudoku.Grid) (record.Puzzle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, q := range m.puzzles {
		if q.Givens == g {
			return q, nil
		}
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (m *memStore) ByCanonical(context.Context, sudoku.Grid) (record.Puzzle, error) {
	return record.Puzzle{}, record.ErrNotFound
}

const easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

func grid(t *testing.T, s string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSubmitSteps: Submit refuses an empty grid, rates, sets the
// submitter, archives and counts by road, duplicates apart.
func TestSubmitSteps(t *testing.T) {
	m := &memStore{}
	a := New(Options{Store: m})
	if _, _, err := a.Submit(t.Context(), Submission{Road: RoadAPI}); !errors.Is(err, record.ErrNoGivens) {
		t.Errorf("empty grid: %v, want ErrNoGivens", err)
	}
	p, dup, err := a.Submit(t.Context(), Submission{Road: RoadForm, Grid: grid(t, easy), Submitter: 7})
	if err != nil || dup || p.Solutions != 1 || m.puzzles[0].SubmitterID != 7 {
		t.Fatalf("submit: %+v, dup %v, %v", p, dup, err)
	}
	if _, dup, err = a.Submit(t.Context(), Submission{Road: RoadForm, Grid: grid(t, easy)}); err != nil || !dup {
		t.Fatalf("again: dup %v, %v", dup, err)
	}
	if fresh, dups := a.Submitted(RoadForm); fresh != 1 || dups != 1 {
		t.Errorf("form counted %d new, %d duplicates; want 1 and 1", fresh, dups)
	}
	if fresh, dups := a.Submitted(RoadAPI); fresh+dups != 0 {
		t.Errorf("the refused empty grid was counted")
	}
}

// TestStopJoinsSetterGrade: a setter's puzzle past a request's budget is
// graded in the background, and Stop cancels that grade and waits for it.
func TestStopJoinsSetterGrade(t *testing.T) {
	a := New(Options{Store: &memStore{}})
	an, err := a.Analyse(t.Context(), grid(t, "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."))
	if err != nil || an.GradeStatus != record.GradePending {
		t.Fatalf("analysis: %+v, %v; want the grade pending", an, err)
	}
	// The grade takes minutes; Stop returns once it has ended. Had Stop
	// waited for it without cancelling, the grade would be kept (done);
	// had it not waited, it would still be running. Neither is a clock.
	a.Stop()
	a.setter.mu.Lock()
	defer a.setter.mu.Unlock()
	if len(a.setter.running) != 0 || len(a.setter.done) != 0 {
		t.Errorf("after Stop: %d grades running, %d kept; want the grade cancelled and joined",
			len(a.setter.running), len(a.setter.done))
	}
}
