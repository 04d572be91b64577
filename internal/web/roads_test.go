package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestEveryWebRoadCounts archives a puzzle by each of the server's roads
// into the archive (the API, the form, a collection's add, generate by the
// API and by its form, the batch import, the puzzle of the day) over a
// real store, and checks that each moved the archive's one counter, which
// /metrics serves as sudoku_submissions_total (issue 44: collection-add and
// generate were not counted).
func TestEveryWebRoadCounts(t *testing.T) {
	s, _, tok := collectionsServer(t)
	want := map[archive.Road]int64{}
	must := func(road archive.Road, code int, rec *httptest.ResponseRecorder) {
		t.Helper()
		if rec.Code != code {
			t.Fatalf("%s: %d, want %d; %.300s", road, rec.Code, code, rec.Body)
		}
		want[road]++
	}
	must(archive.RoadAPI, http.StatusCreated, as(t, s, tok, "ann", "POST", "/api/puzzles", `{"puzzle": "`+colEasy+`"}`))
	must(archive.RoadForm, http.StatusSeeOther, postForm(t, s, relabel(colEasy, 1)))

	rec := as(t, s, tok, "ann", "POST", "/api/collections", `{"name": "Roads"}`)
	col := decode[record.Collection](t, rec)
	must(archive.RoadCollection, http.StatusCreated, as(t, s, tok, "ann", "POST", fmt.Sprintf("/api/collections/%d/puzzles", col.ID), `{"puzzle": "`+relabel(colEasy, 2)+`"}`))

	must(archive.RoadGenerate, http.StatusCreated, post(t, s, "/api/generate", `{"band": "easy"}`))
	cookie, token := csrfPair(t, s)
	req := httptestRequest(http.MethodPost, "/generate", url.Values{"kind": {"band"}, "band": {"easy"}, "_csrf": {token}}.Encode())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(cookie)
	must(archive.RoadGenerate, http.StatusSeeOther, serve(s, req))

	req = httptestRequest(http.MethodPost, batchPath, relabel(colEasy, 3)+"\n")
	req.Header.Set("Content-Type", "text/plain")
	must(archive.RoadBatch, http.StatusOK, serve(s, req))

	if _, err := s.arch.Dailies().Choose(t.Context(), time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	want[archive.RoadDaily]++

	metrics := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(metrics, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, road := range archive.Roads {
		fresh, dup := s.arch.Submitted(road)
		if fresh+dup != want[road] {
			t.Errorf("road %s: %d new + %d duplicates counted, want %d", road, fresh, dup, want[road])
		}
		series := fmt.Sprintf(`sudoku_submissions_total{result="new",via="%s"} %d`, road, fresh)
		if !strings.Contains(metrics.Body.String(), series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
}
