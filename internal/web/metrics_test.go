package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// scrape reads the server's /metrics text as a Prometheus server does and
// returns each sample by name{label="value",...} (labels sorted), a
// histogram by its _count.
func scrape(t *testing.T, s *Server) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(io.Reader(rec.Body))
	if err != nil {
		t.Fatalf("the metrics are not in the text format: %v", err)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			slices.Sort(labels)
			key := name + "{" + strings.Join(labels, ",") + "}"
			switch {
			case m.Counter != nil:
				out[key] = m.GetCounter().GetValue()
			case m.Gauge != nil:
				out[key] = m.GetGauge().GetValue()
			case m.Histogram != nil:
				out[strings.Replace(key, "{", "_count{", 1)] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// TestMetricsMove: a scrape of /metrics is in the Prometheus text format,
// and its series move with what the server does: requests by route and
// status (an unknown path under "other"), submissions new and duplicate,
// the search gate's and the read lane's waits and 503s, login failures and throttles.
func TestMetricsMove(t *testing.T) {
	e := newSecEnv(t, Config{SearchSlots: 1, SearchQueueTimeout: 20 * time.Millisecond, RateLimit: 0})
	_, password := e.user("zoe", account.RolePlayer)
	before := scrape(t, e.s)
	b := e.browser()
	for range 2 {
		b.do(http.MethodPost, "/api/puzzles", puzzleBody(easy))
	}
	b.do(http.MethodGet, "/api/puzzles/1", "")
	b.do(http.MethodGet, "/no/such/page/"+url.PathEscape("x"), "")
	for range loginFailures + 1 {
		b.form("/login", "/login", url.Values{"name": {"zoe"}, "password": {"wrong " + password}})
	}
	if err := e.s.arch.SearchGate().Enter(t.Context()); err != nil { // every slot taken
		t.Fatal(err)
	}
	status, _, _ := b.do(http.MethodPost, "/api/solve", puzzleBody(easy))
	e.s.arch.SearchGate().Leave()
	if status != http.StatusServiceUnavailable {
		t.Fatalf("solve with no free search slot: %d, want 503", status)
	}
	if err := e.s.arch.ReadGate().Enter(t.Context()); err != nil { // the read lane taken
		t.Fatal(err)
	}
	status, _, _ = b.do(http.MethodPost, "/api/hint", `{"puzzle": "`+easy+`"}`)
	e.s.arch.ReadGate().Leave()
	if status != http.StatusServiceUnavailable {
		t.Fatalf("hint with the read lane taken: %d, want 503", status)
	}
	after := scrape(t, e.s)
	for _, c := range []struct {
		series string
		moved  float64
	}{
		{`sudoku_http_requests_total{code="201",method="POST",route="/api/puzzles"}`, 1},
		{`sudoku_http_requests_total{code="200",method="POST",route="/api/puzzles"}`, 1},
		{`sudoku_http_request_duration_seconds_count{code="201",method="POST",route="/api/puzzles"}`, 1},
		{`sudoku_http_requests_total{code="200",method="GET",route="/api/puzzles/:id"}`, 1},
		{`sudoku_http_requests_total{code="404",method="GET",route="other"}`, 1},
		{`sudoku_http_requests_total{code="503",method="POST",route="/api/solve"}`, 1},
		{`sudoku_http_requests_total{code="429",method="POST",route="/login"}`, 1},
		{`sudoku_submissions_total{result="new",via="api"}`, 1},
		{`sudoku_submissions_total{result="duplicate",via="api"}`, 1},
		{`sudoku_search_gate_waits_total{}`, 1},
		{`sudoku_search_gate_refused_total{}`, 1},
		{`sudoku_read_lane_waits_total{}`, 1},
		{`sudoku_read_lane_refused_total{}`, 1},
		{`sudoku_read_lane_client_refused_total{}`, 0},
		{`sudoku_login_failures_total{}`, loginFailures},
		{`sudoku_login_throttled_total{}`, 1},
	} {
		got, ok := after[c.series]
		if !ok {
			t.Errorf("no series %s in the scrape", c.series)
			continue
		}
		if d := got - before[c.series]; d != c.moved {
			t.Errorf("%s moved by %g, want %g", c.series, d, c.moved)
		}
	}
}
