package archive

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestSolveSharedGateApart: what is wrong with a shared puzzle is its
// Refused (the page's 422), a busy gate the call's error (the 503).
func TestSolveSharedGateApart(t *testing.T) {
	a := New(Options{Store: &memStore{}, SearchSlots: 1, SearchQueueTimeout: time.Millisecond})
	sh, err := a.SolveShared(t.Context(), grid(t, easy))
	if err != nil || sh.Refused != nil || sh.Result.Solutions != 1 {
		t.Fatalf("easy: %+v, %v; want one solution", sh, err)
	}
	if sh, err = a.SolveShared(t.Context(), sudoku.Grid{}); err != nil || !errors.Is(sh.Refused, record.ErrNoGivens) {
		t.Errorf("empty grid: refused %v, err %v; want ErrNoGivens refused", sh.Refused, err)
	}
	if _, ok, err := a.Canonical(t.Context(), grid(t, easy)); !ok || err != nil {
		t.Errorf("canonical of easy: ok %v, %v", ok, err)
	}
	if err := a.SearchGate().Enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer a.SearchGate().Leave()
	if _, err := a.SolveShared(t.Context(), grid(t, easy)); !errors.Is(err, ErrOverloaded) {
		t.Errorf("gate full: %v, want ErrOverloaded", err)
	}
	if _, ok, err := a.Canonical(t.Context(), grid(t, easy)); ok || !errors.Is(err, ErrOverloaded) {
		t.Errorf("canonical, gate full: ok %v, %v; want ErrOverloaded", ok, err)
	}
}

// TestHintRefusals: the hint names a changed given, the wrong digits'
// cells, a solved board, and sets aside marks that leave out the solution.
func TestHintRefusals(t *testing.T) {
	a := New(Options{Store: &memStore{}})
	g := grid(t, easy)
	res, err := sudoku.Solve(g, a.SolveOptions(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	var wrong *WrongBoard
	changed := g
	changed[0] = 1
	if _, err := a.Hint(t.Context(), g, changed, [81]uint16{}); !errors.As(err, &wrong) || wrong.Given != 0 || wrong.Cells != nil {
		t.Errorf("changed given: %v", err)
	}
	bad := g
	bad[2] = res.Solution[2]%9 + 1
	if _, err := a.Hint(t.Context(), g, bad, [81]uint16{}); !errors.As(err, &wrong) || len(wrong.Cells) != 1 || wrong.Cells[0] != 2 {
		t.Errorf("wrong digit: %v", err)
	}
	if _, err := a.Hint(t.Context(), g, res.Solution, [81]uint16{}); !errors.Is(err, logic.ErrSolved) {
		t.Errorf("solved board: %v, want ErrSolved", err)
	}
	var marks [81]uint16
	marks[2] = 1 << (res.Solution[2]%9 + 1)
	h, err := a.Hint(t.Context(), g, g, marks)
	if err != nil || len(h.Ignored) != 1 || h.Ignored[0] != 2 || h.Marks[2] != 0 {
		t.Errorf("marks without the solution digit: %+v, %v; want r1c3 set aside", h, err)
	}
}
