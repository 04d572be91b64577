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

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const batchEasy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

// bulkFake adds the bulk methods to the fake archive. SubmitMany is all or
// nothing, like the store's transaction: fail makes it fail untouched.
type bulkFake struct {
	*fakeArchive
	fail  error
	calls int
	q     record.ListQuery
}

func (f *bulkFake) SubmitMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
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

func (f *bulkFake) Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error {
	f.q = q
	f.mu.Lock()
	ps := append([]record.Puzzle(nil), f.puzzles...)
	f.mu.Unlock()
	for _, p := range ps {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func TestAPIBatch(t *testing.T) {
	a := &bulkFake{fakeArchive: &fakeArchive{}}
	s := New(partsOf(a), Config{Logger: quiet})
	body := "# a comment\n" + batchEasy + "\n\n" + strings.ReplaceAll(batchEasy, ".", "0") + " 7.2\nnope\n" +
		"55" + batchEasy[2:] + "\n"
	req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, "text/plain; charset=utf-8")
	rec := serve(s, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", rec.Code, rec.Body)
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
			s := New(partsOf(a), Config{Logger: quiet})
			req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set(echo.HeaderContentType, tc.ctype)
			}
			rec := serve(s, req)
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), `"error"`) {
				t.Fatalf("status %d %s, want %d with an error", rec.Code, rec.Body, tc.status)
			}
			if len(a.puzzles) != 0 {
				t.Errorf("%d puzzles stored, want none", len(a.puzzles))
			}
		})
	}
	t.Run("largest body", func(t *testing.T) {
		a := &bulkFake{fakeArchive: &fakeArchive{}}
		s := New(partsOf(a), Config{Logger: quiet})
		body := strings.Repeat("#", MaxBatchBody-83) + "\n" + batchEasy + "\n"
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(body))
		req.Header.Set(echo.HeaderContentType, "text/plain")
		rec := serve(s, req)
		if rec.Code != http.StatusOK || len(a.puzzles) != 1 {
			t.Errorf("a body of exactly %d bytes: status %d, %d stored; want 200 and 1 stored", len(body), rec.Code, len(a.puzzles))
		}
	})
	t.Run("archive fails", func(t *testing.T) {
		down := errors.New("disk full")
		a := &bulkFake{fakeArchive: &fakeArchive{}, fail: down}
		s := New(partsOf(a), Config{Logger: quiet})
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(batchEasy+"\n"))
		req.Header.Set(echo.HeaderContentType, "text/plain")
		if rec := serve(s, req); rec.Code != http.StatusInternalServerError || strings.Contains(rec.Body.String(), "disk full") {
			t.Errorf("status %d %s, want a 500 that does not show the cause", rec.Code, rec.Body)
		}
		if len(a.puzzles) != 0 {
			t.Errorf("%d puzzles stored, want none", len(a.puzzles))
		}
	})
}

func TestAPIExport(t *testing.T) {
	a := &bulkFake{fakeArchive: &fakeArchive{}}
	g, _ := sudoku.Parse(batchEasy)
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.Submit(context.Background(), p)
	s := New(partsOf(a), Config{Logger: quiet})
	tests := []struct {
		target      string
		status      int
		q           record.ListQuery
		ctype, file string
		prefix      string
	}{
		{"/api/export", 200, record.ListQuery{Sort: record.SortDifficulty, Desc: true},
			"text/plain; charset=utf-8", "sudoku-difficulty-desc.txt", batchEasy + "\n"},
		{"/api/export?format=csv&sort=clues&order=asc", 200, record.ListQuery{Sort: record.SortClues},
			"text/csv; charset=utf-8", "sudoku-clues-asc.csv", "id,puzzle,solution,"},
		{"/api/export?format=json&sort=submitted", 200, record.ListQuery{Sort: record.SortSubmitted, Desc: true},
			"application/jsonl; charset=utf-8", "sudoku-submitted-desc.jsonl", `{"id":1,"puzzle":"` + batchEasy},
		{"/api/export?band=hard&unique=true&sort=clues&limit=5&cursor=x", 200, record.ListQuery{Sort: record.SortClues, Desc: true, Band: sudoku.BandHard, UniqueOnly: true},
			"text/plain; charset=utf-8", "sudoku-clues-desc.txt", ""},
		{"/api/export?band=nope", 400, record.ListQuery{}, "", "", ""},
		{"/api/export?unique=maybe", 400, record.ListQuery{}, "", "", ""},
		{"/api/export?format=xml", 400, record.ListQuery{}, "", "", ""},
		{"/api/export?sort=name", 400, record.ListQuery{}, "", "", ""},
		{"/api/export?order=up", 400, record.ListQuery{}, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			a.q = record.ListQuery{}
			rec := serve(s, httptest.NewRequest(http.MethodGet, tc.target, nil))
			if rec.Code != tc.status {
				t.Fatalf("status %d %s, want %d", rec.Code, rec.Body, tc.status)
			}
			if tc.status != 200 {
				return
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
