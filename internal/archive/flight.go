package archive

import (
	"context"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// flightCache keeps the recent answers of a search that depends only on
// a puzzle's givens (a trace, an explanation), up to max of their size.
// Requests for an answer being computed wait for that computation instead
// of running their own, so however many clients ask for one puzzle, it is
// searched once; the oldest answers go first when the cache is full.
type flightCache[V any] struct {
	mu     sync.Mutex
	max    int
	size   int
	sizeOf func(V) int
	m      map[sudoku.Grid]*flight[V]
	order  []sudoku.Grid // oldest first, for eviction
}

// flight is one answer, computed or being computed.
type flight[V any] struct {
	done chan struct{} // closed once v or err is set
	v    V
	err  error
	size int
}

func newFlightCache[V any](max int, sizeOf func(V) int) *flightCache[V] {
	return &flightCache[V]{max: max, sizeOf: sizeOf, m: make(map[sudoku.Grid]*flight[V])}
}

// get returns the answer for g, computing it with compute if no one has
// or is. A computation that fails is forgotten: the next request tries
// again.
func (fc *flightCache[V]) get(ctx context.Context, g sudoku.Grid, compute func() (V, error)) (V, error) {
	fc.mu.Lock()
	e, ok := fc.m[g]
	if !ok {
		e = &flight[V]{done: make(chan struct{})}
		fc.m[g] = e
	}
	fc.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.v, e.err
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
	}
	e.v, e.err = compute()
	fc.mu.Lock()
	if e.err != nil {
		delete(fc.m, g)
	} else {
		e.size = fc.sizeOf(e.v)
		fc.size += e.size
		fc.order = append(fc.order, g)
		for fc.size > fc.max && len(fc.order) > 1 {
			old := fc.order[0]
			fc.order = fc.order[1:]
			fc.size -= fc.m[old].size
			delete(fc.m, old)
		}
	}
	fc.mu.Unlock()
	close(e.done)
	return e.v, e.err
}

// len returns how many answers the cache holds and their size.
func (fc *flightCache[V]) len() (n, size int) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return len(fc.m), fc.size
}
