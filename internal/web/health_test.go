package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestProbeClientLeft: a health probe whose client hung up while the
// database was asked is logged as the client leaving (DEBUG, 499), not as
// a WARN "database unavailable"; a probe still waiting for its answer
// gets the 503 as before.
func TestProbeClientLeft(t *testing.T) {
	for _, path := range []string{"/healthz", "/readyz"} {
		var logs bytes.Buffer
		s := New(partsOf(&fakeArchive{pingErr: context.Canceled}),
			Config{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), NoDaily: true})
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the probe's client gave up
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx))
		out := logs.String()
		if rec.Code != statusClientClosed || strings.Contains(out, "database unavailable") || strings.Contains(out, "level=WARN") ||
			!strings.Contains(out, "the client left") {
			t.Errorf("%s, client gone: %d, logs:\n%s", path, rec.Code, out)
		}
		rec = httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "database unavailable") {
			t.Errorf("%s, database down: %d %s", path, rec.Code, rec.Body)
		}
	}
}

// TestWriteHealth: a refused write turns the record degraded, reads leave
// it, a successful write clears it.
func TestWriteHealth(t *testing.T) {
	var w writeHealth
	w.refused(errFullForTest{})
	if r, since := w.degraded(); !strings.Contains(r, "storage full") || since.IsZero() {
		t.Fatalf("after a refused write: %q %v", r, since)
	}
	w.answered(http.MethodGet, http.StatusOK)
	w.answered(http.MethodPost, http.StatusServiceUnavailable)
	if r, _ := w.degraded(); r == "" {
		t.Error("a read or a failed write cleared it")
	}
	w.answered(http.MethodPost, http.StatusCreated)
	if r, _ := w.degraded(); r != "" {
		t.Errorf("after a write succeeded: %q", r)
	}
}

type errFullForTest struct{}

func (errFullForTest) Error() string { return "storage full" }
