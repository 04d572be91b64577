package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Trace returns the replay of the search that measures g, step by step:
// the JSON {"steps": [...], "truncated": bool} of GET
// /api/puzzles/{id}/trace, gzip-compressed. It is computed once per
// puzzle, in a turn of the search gate, and kept compressed (a flightCache):
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
	return a.traces.len()
}

// traceCacheBytes bounds the compressed traces kept in memory. A trace is
// up to 3.7 MB of JSON, about 5% of that compressed (the longest known,
// 2.44 MB, takes 113 KB): about 290 of the longest fit.
const traceCacheBytes = 32 << 20

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
