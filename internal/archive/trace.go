package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Trace returns the replay of the search that measures g, step by step:
// the JSON {"steps": [...], "truncated": bool} of GET
// /api/puzzles/{id}/trace, gzip-compressed. It is computed once per
// puzzle, in a turn of the search gate, and kept compressed (traceCache):
// its cost in memory is small and bounded however many clients ask.
func (a *Archive) Trace(ctx context.Context, g sudoku.Grid) ([]byte, error) {
	return a.traces.get(ctx, g, func() ([]byte, error) {
		var gz []byte
		err := a.Searching(ctx, func() error {
			var err error
			gz, err = a.encodeTrace(ctx, g)
			return err
		})
		return gz, err
	})
}

// TraceCacheSize returns how many traces the cache holds and their
// compressed bytes.
func (a *Archive) TraceCacheSize() (n, size int) {
	a.traces.mu.Lock()
	defer a.traces.mu.Unlock()
	return len(a.traces.m), a.traces.size
}

// traceCacheBytes bounds the compressed traces kept in memory. A trace is
// up to 3.7 MB of JSON, about 5% of that compressed (the longest known,
// 2.44 MB, takes 113 KB): about 290 of the longest fit.
const traceCacheBytes = 32 << 20

// traceCache keeps recent traces, gzip-compressed JSON, by givens: a trace
// depends only on the givens and the server's node budget. Requests for a
// trace being computed wait for that computation instead of running their
// own, so however many clients ask for one puzzle, it is searched once.
type traceCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[sudoku.Grid]*traceEntry
	order []sudoku.Grid // oldest first, for eviction
}

type traceEntry struct {
	done chan struct{} // closed once gz or err is set
	gz   []byte
	err  error
}

func newTraceCache(max int) *traceCache {
	return &traceCache{max: max, m: make(map[sudoku.Grid]*traceEntry)}
}

// get returns the compressed trace of g, computing it with compute if no
// one has or is.
func (tc *traceCache) get(ctx context.Context, g sudoku.Grid, compute func() ([]byte, error)) ([]byte, error) {
	tc.mu.Lock()
	e, ok := tc.m[g]
	if !ok {
		e = &traceEntry{done: make(chan struct{})}
		tc.m[g] = e
	}
	tc.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.gz, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.gz, e.err = compute()
	tc.mu.Lock()
	if e.err != nil {
		delete(tc.m, g) // the next request tries again
	} else {
		tc.size += len(e.gz)
		tc.order = append(tc.order, g)
		for tc.size > tc.max && len(tc.order) > 1 {
			old := tc.order[0]
			tc.order = tc.order[1:]
			tc.size -= len(tc.m[old].gz)
			delete(tc.m, old)
		}
	}
	tc.mu.Unlock()
	close(e.done)
	return e.gz, e.err
}

// encodeTrace runs the traced search of g and returns the JSON answer,
// {"steps": [...], "truncated": bool}, gzip-compressed. The JSON is
// written a thousand steps at a time, never whole.
func (a *Archive) encodeTrace(ctx context.Context, g sudoku.Grid) ([]byte, error) {
	steps, truncated, _, err := sudoku.Trace(g, 0, a.SolveOptions(ctx))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	// Computed once per puzzle: a good ratio is worth its milliseconds.
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression) // a valid level: no error
	io.WriteString(zw, `{"steps":[`)
	for i := 0; i < len(steps); i += 1000 {
		part, err := json.Marshal(steps[i:min(i+1000, len(steps))])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			zw.Write([]byte{','})
		}
		zw.Write(part[1 : len(part)-1]) // without the brackets
	}
	fmt.Fprintf(zw, `],"truncated":%t}`+"\n", truncated)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}
