package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

var metricsListeningRE = regexp.MustCompile(`msg="metrics listening" addr=(\S+)`)

// scrapeMetrics reads url (a /metrics) as a Prometheus server does and
// returns each counter's or gauge's value by name{value of its one label}.
func scrapeMetrics(t *testing.T, url string) map[string]float64 {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(io.Reader(res.Body))
	if err != nil {
		t.Fatalf("GET %s: not the text format: %v", url, err)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetValue())
			}
			key := name + "{" + strings.Join(labels, ",") + "}"
			if m.Counter != nil {
				out[key] = m.GetCounter().GetValue()
			} else if m.Gauge != nil {
				out[key] = m.GetGauge().GetValue()
			}
		}
	}
	return out
}

// TestServeMetrics: `serve --metrics-addr` serves /metrics on a listener
// of its own (the public one has none): the database's pools, the grade
// queue's length and its oldest row's age (graders off, so the queue
// stays), and the submissions, moving as a puzzle is submitted.
func TestServeMetrics(t *testing.T) { eachArchive(t, testServeMetrics) }

func testServeMetrics(t *testing.T, dbPath string) {
	s := startServe(t, dbPath, "--rate-limit", "0", "--graders", "0", "--metrics-addr", "127.0.0.1:0")
	m := metricsListeningRE.FindStringSubmatch(s.logs.String())
	if m == nil {
		t.Fatalf("no metrics listener in the log:\n%s", s.logs)
	}
	metrics := "http://" + m[1] + "/metrics"
	if res := call(t, "GET", s.url+"/metrics", "", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the public listener: %d, want 404", res.StatusCode)
	}
	before := scrapeMetrics(t, metrics)
	if before["sudoku_grade_queue_length{}"] != 0 || before["sudoku_db_up{}"] != 1 {
		t.Errorf("an empty archive: queue %g, db up %g", before["sudoku_grade_queue_length{}"], before["sudoku_db_up{}"])
	}
	if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d", res.StatusCode)
	}
	time.Sleep(10 * time.Millisecond) // the oldest row's age is measured in wall time
	after := scrapeMetrics(t, metrics)
	for series, moved := range map[string]float64{ // labels in name order
		"sudoku_grade_queue_length{}":                       1,
		"sudoku_submissions_total{new,api}":                 1,
		"sudoku_http_requests_total{201,POST,/api/puzzles}": 1,
	} {
		if got := after[series] - before[series]; got != moved {
			t.Errorf("%s moved by %g, want %g", series, got, moved)
		}
	}
	for _, series := range []string{"sudoku_db_max_open_connections{writer}", "sudoku_db_open_connections{reader}",
		"sudoku_db_wait_count_total{reader}", "go_goroutines{}", "process_cpu_seconds_total{}"} {
		if _, ok := after[series]; !ok {
			t.Errorf("no series %s in the scrape", series)
		}
	}
	if age := after["sudoku_grade_queue_oldest_age_seconds{}"]; age <= 0 || age > 60 {
		t.Errorf("the oldest ungraded row's age: %g s, want a few milliseconds", age)
	}
}
