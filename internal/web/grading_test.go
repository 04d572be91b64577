package web

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// fullQueue is a grade queue of one puzzle whose grades never commit, as
// on a full disk.
type fullQueue struct{}

func (fullQueue) CountUngraded(context.Context) (int64, error) { return 1, nil }
func (fullQueue) LastID(context.Context) (int64, error)        { return 1, nil }
func (fullQueue) Ungraded(_ context.Context, after int64, _ int) ([]record.Puzzle, error) {
	if after >= 1 {
		return nil, nil
	}
	g, _ := sudoku.Parse(easy)
	return []record.Puzzle{{ID: 1, Givens: g}}, nil
}
func (fullQueue) SetGrades(context.Context, []record.Puzzle) error {
	return errors.New("database or disk is full")
}

// TestHealthzDegraded: while the graders cannot commit, /healthz?verbose
// says "degraded" with the reason (plain /healthz stays 200: the archive
// still reads and takes submissions elsewhere).
func TestHealthzDegraded(t *testing.T) {
	g := &bulk.Graders{DB: fullQueue{}, Workers: 1, Grade: func(p *record.Puzzle) { p.GradeVersion = "test" },
		Poll: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(30 * time.Second)
	for reason, _ := g.Degraded(); reason == ""; reason, _ = g.Degraded() {
		if time.Now().After(deadline) {
			t.Fatal("the graders never said they were degraded")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s := New(partsOf(&fakeArchive{}), Config{Logger: slog.New(slog.DiscardHandler), NoDaily: true, Graders: g})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz?verbose", nil))
	var h struct{ Status, Reason string }
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %q: %v", rec.Code, rec.Body, err)
	}
	if h.Status != "degraded" || !strings.Contains(h.Reason, "disk is full") {
		t.Errorf("/healthz?verbose: %+v, want degraded with the reason", h)
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("/healthz: %d, want 200", rec.Code)
	}
}
