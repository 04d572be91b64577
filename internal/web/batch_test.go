package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const batchEasy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

// bulkFake adds the bulk methods to the fake archive. SubmitMany is all or
// nothing, like the store's transaction: fail makes it fail untouched.
type bulkFake struct {
	*fakeArchive
	fail  error
	calls int
	q     sudoku.ListQuery
}

func (f *bulkFake) SubmitMany(ctx context.Context, ps []sudoku.Puzzle) ([]bool, error) {
	f.calls++
	if f.fail != nil {
		return nil, f.fail
	}
	dup := make([]bool, len(ps))
	for i, p := range ps {
		_, d, err := f.Submit(ctx, p)
		if err != nil {
			return nil, err
		}
		dup[i] = d
	}
	return dup, nil
}

func (f *bulkFake) Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error {
	f.q = q
	f.mu.Lock()
	ps := append([]sudoku.Puzzle(nil), f.puzzles...)
	f.mu.Unlock()
	for _, p := range ps {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func serve(s *Server, req *http.Request, h echo.HandlerFunc) (*httptest.ResponseRecorder, error) {
	rec := httptest.NewRecorder()
	return rec, h(s.echo.NewContext(req, rec))
}

func TestAPIBatch(t *testing.T) {
	a := &bulkFake{fakeArchive: &fakeArchive{}}
	s := New(a, Config{})
	body := "# a comment\n" + batchEasy + "\n\n" + strings.ReplaceAll(batchEasy, ".", "0") + " 7.2\nnope\n" +
		"55" + batchEasy[2:] + "\n"
	req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, "text/plain; charset=utf-8")
	rec, err := serve(s, req, s.apiBatch)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, want 200", rec.Code)
	}
	var got batchResult
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := batchResult{Imported: 1, Duplicates: 1, Rejected: 2, Errors: []batchError{
		{Line: 5, Error: "'n' at position 1 is not a cell (cells are 1-9, with 0 or . for a blank)"},
		{Line: 6, Error: "row 1 has two 5s"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	if a.calls != 1 {
		t.Errorf("%d SubmitMany calls, want the whole body in one transaction", a.calls)
	}
}

func TestAPIBatchRefuses(t *testing.T) {
	tests := []struct {
		name   string
		ctype  string
		body   string
		fail   error
		status int
	}{
		{"json body", echo.MIMEApplicationJSON, batchEasy, nil, http.StatusUnsupportedMediaType},
		{"no content type", "", batchEasy, nil, http.StatusUnsupportedMediaType},
		{"too large", "text/plain", strings.Repeat(batchEasy+"\n", MaxBatchBody/82+1), nil, http.StatusRequestEntityTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &bulkFake{fakeArchive: &fakeArchive{}, fail: tc.fail}
			s := New(a, Config{})
			req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set(echo.HeaderContentType, tc.ctype)
			}
			_, err := serve(s, req, s.apiBatch)
			var he *echo.HTTPError
			if !errors.As(err, &he) || he.Code != tc.status {
				t.Fatalf("err = %v, want HTTP %d", err, tc.status)
			}
			if len(a.puzzles) != 0 {
				t.Errorf("%d puzzles stored, want none", len(a.puzzles))
			}
		})
	}
	t.Run("largest body", func(t *testing.T) {
		a := &bulkFake{fakeArchive: &fakeArchive{}}
		s := New(a, Config{})
		body := strings.Repeat("#", MaxBatchBody-83) + "\n" + batchEasy + "\n"
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(body))
		req.Header.Set(echo.HeaderContentType, "text/plain")
		rec, err := serve(s, req, s.apiBatch)
		if err != nil || rec.Code != http.StatusOK || len(a.puzzles) != 1 {
			t.Errorf("a body of exactly %d bytes: %v, status %d, %d stored; want 200 and 1 stored", len(body), err, rec.Code, len(a.puzzles))
		}
	})
	t.Run("archive fails", func(t *testing.T) {
		down := errors.New("disk full")
		a := &bulkFake{fakeArchive: &fakeArchive{}, fail: down}
		s := New(a, Config{})
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(batchEasy+"\n"))
		req.Header.Set(echo.HeaderContentType, "text/plain")
		if _, err := serve(s, req, s.apiBatch); !errors.Is(err, down) {
			t.Errorf("err = %v, want the archive's error", err)
		}
	})
	t.Run("archive without bulk methods", func(t *testing.T) {
		s := New(&fakeArchive{}, Config{})
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(batchEasy+"\n"))
		req.Header.Set(echo.HeaderContentType, "text/plain")
		_, err := serve(s, req, s.apiBatch)
		var he *echo.HTTPError
		if !errors.As(err, &he) || he.Code != http.StatusNotImplemented {
			t.Errorf("err = %v, want 501", err)
		}
	})
}

func TestAPIExport(t *testing.T) {
	a := &bulkFake{fakeArchive: &fakeArchive{}}
	g, _ := sudoku.Parse(batchEasy)
	p, err := sudoku.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.Submit(context.Background(), p)
	s := New(a, Config{})
	tests := []struct {
		target      string
		status      int
		q           sudoku.ListQuery
		ctype, file string
		prefix      string
	}{
		{"/api/export", 200, sudoku.ListQuery{Sort: sudoku.SortDifficulty, Desc: true},
			"text/plain; charset=utf-8", "sudoku-difficulty-desc.txt", batchEasy + "\n"},
		{"/api/export?format=csv&sort=clues&order=asc", 200, sudoku.ListQuery{Sort: sudoku.SortClues},
			"text/csv; charset=utf-8", "sudoku-clues-asc.csv", "id,puzzle,solution,"},
		{"/api/export?format=json&sort=submitted", 200, sudoku.ListQuery{Sort: sudoku.SortSubmitted, Desc: true},
			"application/jsonl; charset=utf-8", "sudoku-submitted-desc.jsonl", `{"id":1,"puzzle":"` + batchEasy},
		{"/api/export?format=xml", 400, sudoku.ListQuery{}, "", "", ""},
		{"/api/export?sort=name", 400, sudoku.ListQuery{}, "", "", ""},
		{"/api/export?order=up", 400, sudoku.ListQuery{}, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			a.q = sudoku.ListQuery{}
			rec, err := serve(s, httptest.NewRequest(http.MethodGet, tc.target, nil), s.apiExport)
			if tc.status != 200 {
				var he *echo.HTTPError
				if !errors.As(err, &he) || he.Code != tc.status {
					t.Fatalf("err = %v, want HTTP %d", err, tc.status)
				}
				return
			}
			if err != nil || rec.Code != 200 {
				t.Fatalf("status %d, err %v", rec.Code, err)
			}
			if a.q != tc.q {
				t.Errorf("query %+v, want %+v", a.q, tc.q)
			}
			h := rec.Header()
			if h.Get("Content-Type") != tc.ctype || h.Get("Content-Disposition") != `attachment; filename="`+tc.file+`"` {
				t.Errorf("headers %v, want %s and %s", h, tc.ctype, tc.file)
			}
			if !strings.HasPrefix(rec.Body.String(), tc.prefix) {
				t.Errorf("body %q, want it to start with %q", rec.Body.String(), tc.prefix)
			}
		})
	}
}
