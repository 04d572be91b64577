package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestGenerateFormRefusesNaN: a grade range of NaN is refused with a 400
// that says why before any search starts. Before, NaN passed every range
// check and the form held a search slot for its whole budget: here, with
// the only slot taken, it waited for it and answered 503.
func TestGenerateFormRefusesNaN(t *testing.T) {
	s, f := newTestServer(t, Config{SearchSlots: 1, SearchQueueTimeout: 2 * time.Second})
	cookie, token := csrfPair(t, s)
	if err := s.search.enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer s.search.leave()
	for _, tc := range [][2]string{{"NaN", "NaN"}, {"nan", "8"}, {"2", "Inf"}, {"-Inf", "3"}, {"1e0", "2"}, {"2", "20"}} {
		v := url.Values{"kind": {"grade"}, "min": {tc[0]}, "max": {tc[1]}, "_csrf": {token}}
		req := httptestRequest(http.MethodPost, "/generate", v.Encode())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		rec := serve(s, req)
		doc := page(t, rec, http.StatusBadRequest)
		if msg := tid(doc, "error-message").Text() + doc.Text(); !strings.Contains(msg, "grades run from 1.0 to 12.0") {
			t.Errorf("%v: the page does not say why", tc)
		}
	}
	if len(f.puzzles) != 0 {
		t.Errorf("%d puzzles archived", len(f.puzzles))
	}
}

// TestLongValuesCutInErrors: a refused value is repeated in the message
// only up to a short prefix, marked with an ellipsis; before, a 4 KiB sort
// came back whole.
func TestLongValuesCutInErrors(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	long := strings.Repeat("x", 4000)
	for _, path := range []string{
		"/api/puzzles?sort=" + long, "/api/puzzles?order=" + long, "/api/puzzles?band=" + long,
		"/api/puzzles?limit=" + long, "/api/puzzles?grade_min=" + long, "/api/puzzles?unique=" + long,
		"/api/daily?date=" + long, "/api/export?format=" + long,
	} {
		rec := get(t, s, path)
		msg := decode[apiErr](t, rec).Error
		if rec.Code != http.StatusBadRequest || len(msg) > 300 || !strings.Contains(msg, "…") {
			t.Errorf("%.40s…: status %d, message of %d bytes: %.100s", path, rec.Code, len(msg), msg)
		}
	}
	rec := do(t, s, request{method: http.MethodPost, path: "/api/solve", body: "{}", contentType: "text/" + long})
	if msg := decode[apiErr](t, rec).Error; rec.Code != http.StatusUnsupportedMediaType || len(msg) > 300 {
		t.Errorf("long Content-Type: status %d, message of %d bytes", rec.Code, len(msg))
	}
}

// TestHintListsAreArrays: a hint's step has "eliminations": [] (and
// "cells", "placements") like the explain path's steps, never null.
func TestHintListsAreArrays(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := post(t, s, "/api/hint", `{"puzzle": "`+easy+`"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if strings.Contains(body, "null") || !strings.Contains(body, `"eliminations":[`) || !strings.Contains(body, `"cells":[`) {
		t.Errorf("hint: %s", body)
	}
}
