package archive

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Budgets of the searches the archive runs for its callers.
const (
	// DefaultMaxNodes is 50 times what the hardest puzzle of the standard
	// collections needs (about 4,100 nodes) and takes about 0.1 s: a hostile
	// grid is refused quickly instead of holding a core for the engine's own
	// budget (sudoku.DefaultMaxNodes, about a second, three times over).
	DefaultMaxNodes = 200_000
	// DefaultSearchQueueTimeout is how long a search waits for a slot
	// before ErrOverloaded: about fifty budget-long searches.
	DefaultSearchQueueTimeout = 5 * time.Second
)

// ErrOverloaded is a search that waited too long for a turn (a 503 with
// Retry-After over HTTP).
var ErrOverloaded error = overloaded{}

type overloaded struct{}

func (overloaded) Error() string     { return "overloaded: no free slot for expensive work" }
func (overloaded) Kind() record.Kind { return record.KindOverloaded }

// A Gate bounds how many callers do one kind of expensive work at once
// (the search gate). The others queue
// for a turn, each for at most its wait or until its context ends, then
// fail with ErrOverloaded.
type Gate struct {
	slots chan struct{}
	wait  time.Duration
	// waited counts the entries that found every slot taken, refused
	// those of them that waited too long.
	waited, refused atomic.Int64
}

// NewGate returns a gate of n turns at once, whose callers wait at most
// wait for one.
func NewGate(n int, wait time.Duration) *Gate {
	return &Gate{slots: make(chan struct{}, n), wait: wait}
}

// Enter waits for a turn; the caller must call Leave once done. A caller
// whose context has ended gets none, even from a free slot: its answer is
// no longer awaited.
func (g *Gate) Enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("waiting for a turn: %w", err)
	}
	select {
	case g.slots <- struct{}{}:
		return nil
	default:
	}
	g.waited.Add(1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-t.C:
		g.refused.Add(1)
		return ErrOverloaded
	case <-ctx.Done():
		return fmt.Errorf("waiting for a turn: %w", ctx.Err())
	}
}

// Leave ends a turn Enter took.
func (g *Gate) Leave() { <-g.slots }

// Searching runs fn, a search, in a turn of one of the archive's two
// lanes: the work a read asks for (ctx from ForReader: GET pages and
// their explanations, traces, practice, hints) in the read lane, each
// reader holding at most ReadsPerClient turns or places in its queue;
// everything else (the writes and solves, the daily keeper, the setter's
// grades, the batch import's ratings) in the search gate, which reads never
// enter (lanes.go).
func (a *Archive) Searching(ctx context.Context, fn func() error) error {
	if who, ok := readerOf(ctx); ok {
		if err := a.reads.enter(ctx, who); err != nil {
			return err
		}
		defer a.reads.leave(who)
		return fn()
	}
	if err := a.search.Enter(ctx); err != nil {
		return err
	}
	defer a.search.Leave()
	return fn()
}

// SolveOptions bounds a search run for a caller whose context is ctx: the
// archive's node budget, and ctx's end.
func (a *Archive) SolveOptions(ctx context.Context) sudoku.Options {
	return sudoku.Options{MaxNodes: a.budget, Done: ctx.Done()}
}

// SearchGate returns the search gate itself, for a caller (a test) that
// holds turns across calls.
func (a *Archive) SearchGate() *Gate { return a.search }

// MaxNodes is the archive's node budget of a search.
func (a *Archive) MaxNodes() int64 { return a.budget }

// GateWaits returns how many searches found every slot taken and waited,
// and how many of those waited too long (ErrOverloaded).
func (a *Archive) GateWaits() (waited, refused int64) {
	return a.search.waited.Load(), a.search.refused.Load()
}
