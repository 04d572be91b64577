package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

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

// apiTrace replays the search that measured a puzzle, step by step. The
// trace is computed once per puzzle in a turn of the search gate, kept
// compressed (traceCache), and sent compressed to clients that accept gzip;
// to others it is decompressed as it is sent. So its cost in memory is
// small and bounded however many clients download it at once, and however
// slowly they read.
func (s *Server) apiTrace(c echo.Context) error {
	p, err := s.puzzleParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	gz, err := s.traces.get(ctx, p.Givens, func() ([]byte, error) {
		var gz []byte
		err := s.searching(ctx, func() error {
			var err error
			gz, err = s.encodeTrace(ctx, p.Givens)
			return err
		})
		return gz, err
	})
	if err != nil {
		return fmt.Errorf("trace puzzle %d: %w", p.ID, err)
	}
	req := c.Request()
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if acceptsGzip(req) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		h.Set(echo.HeaderContentLength, strconv.Itoa(len(gz)))
		c.Response().WriteHeader(http.StatusOK)
		if req.Method == http.MethodHead {
			return nil
		}
		_, err := c.Response().Write(gz)
		return err
	}
	c.Response().WriteHeader(http.StatusOK)
	if req.Method == http.MethodHead {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("trace puzzle %d: %w", p.ID, err)
	}
	_, err = io.Copy(c.Response(), zr)
	return err
}

// encodeTrace runs the traced search of g and returns the JSON answer,
// {"steps": [...], "truncated": bool}, gzip-compressed. The JSON is
// written a thousand steps at a time, never whole.
func (s *Server) encodeTrace(ctx context.Context, g sudoku.Grid) ([]byte, error) {
	steps, truncated, _, err := sudoku.Trace(g, 0, s.solveOptions(ctx))
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

// acceptsGzip reports whether the client takes a gzip-encoded response.
func acceptsGzip(req *http.Request) bool {
	for _, part := range strings.Split(req.Header.Get(echo.HeaderAcceptEncoding), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
