package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sudoku-archive/sudoku/internal/archive"
)

// metrics are the server's own series in the Prometheus text format
// (docs/metrics.md). They are always counted (a counter is an atomic add);
// they are exposed only where cmd/sudoku serves MetricsHandler, on a
// listener of its own (serve --metrics-addr), never on the public one.
type metrics struct {
	reg *prometheus.Registry
	// routes holds the route table's paths: a request that matched none is
	// counted under route "other", so a scan of random paths cannot grow
	// the series without bound.
	routes map[string]bool

	requests      *prometheus.CounterVec   // route, method, code
	latency       *prometheus.HistogramVec // route, method, code
	loginFailures prometheus.Counter
	loginThrottle prometheus.Counter
}

// latencyBuckets span a cached read (under a millisecond) to a request
// timeout (10 s).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

func newMetrics(a *archive.Archive) *metrics {
	m := &metrics{
		reg:    prometheus.NewRegistry(),
		routes: map[string]bool{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sudoku_http_requests_total",
			Help: "HTTP requests answered, by route (the route table's pattern, \"other\" for none), method and status code.",
		}, []string{"route", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sudoku_http_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by route, method and status code.",
			Buckets: latencyBuckets,
		}, []string{"route", "method", "code"}),
		loginFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sudoku_login_failures_total",
			Help: "Logins refused for a wrong name or password.",
		}),
		loginThrottle: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sudoku_login_throttled_total",
			Help: "Logins refused (429) because the name had too many failures within the window.",
		}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.loginFailures, m.loginThrottle, submissions{a},
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sudoku_search_gate_waits_total",
			Help: "Searches (solving, rating, tracing) that found every search slot taken and waited for one.",
		}, func() float64 { w, _ := a.GateWaits(); return float64(w) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sudoku_search_gate_refused_total",
			Help: "Searches that waited longer than the search queue timeout for a slot and were answered 503.",
		}, func() float64 { _, r := a.GateWaits(); return float64(r) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sudoku_read_lane_waits_total",
			Help: "Searches of reads (explanations, traces, hints, share links, practice) that found the read lane taken and waited for a turn.",
		}, func() float64 { w, _, _ := a.ReadWaits(); return float64(w) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sudoku_read_lane_refused_total",
			Help: "Searches of reads that waited longer than the search queue timeout for a turn and were answered 503.",
		}, func() float64 { _, r, _ := a.ReadWaits(); return float64(r) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sudoku_read_lane_client_refused_total",
			Help: "Searches of reads refused at once (503) because their client already held its share of the read lane.",
		}, func() float64 { _, _, b := a.ReadWaits(); return float64(b) }))
	return m
}

// submissionsDesc is sudoku_submissions_total, counted by the archive
// (archive.Archive.Submitted), one series per road and result.
var submissionsDesc = prometheus.NewDesc("sudoku_submissions_total",
	"Puzzles submitted and durably archived, by way (api, form, batch: the batch import and the upload; collection, generate, daily, import, attempts) and result (new, duplicate).",
	[]string{"via", "result"}, nil)

// submissions collects the archive's counts of puzzles archived.
type submissions struct{ a *archive.Archive }

func (submissions) Describe(ch chan<- *prometheus.Desc) { ch <- submissionsDesc }

func (s submissions) Collect(ch chan<- prometheus.Metric) {
	for _, r := range archive.Roads {
		fresh, dup := s.a.Submitted(r)
		ch <- prometheus.MustNewConstMetric(submissionsDesc, prometheus.CounterValue, float64(fresh), string(r), "new")
		ch <- prometheus.MustNewConstMetric(submissionsDesc, prometheus.CounterValue, float64(dup), string(r), "duplicate")
	}
}

// observe is the outermost middleware: it counts each request under its
// route pattern and final status. An error the inner middleware did not
// hand to the error handler is handed to it here, so the status counted is
// the one the client gets.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		defer func() {
			// A response cut off (an export that failed part way) ends in
			// panic(http.ErrAbortHandler), past the counting below: it is
			// counted here, under the status its handler chose (cutKey).
			if r := recover(); r != nil {
				if code, ok := c.Get(cutKey).(int); ok {
					s.count(c, code, start)
				}
				panic(r)
			}
		}()
		err := next(c)
		if err != nil && !c.Response().Committed {
			c.Error(err)
		}
		s.count(c, c.Response().Status, start)
		return err
	}
}

// count counts the request c, answered with code, begun at start.
func (s *Server) count(c echo.Context, code int, start time.Time) {
	route := c.Path()
	if !s.metrics.routes[route] {
		route = "other"
	}
	labels := prometheus.Labels{"route": route, "method": c.Request().Method, "code": strconv.Itoa(code)}
	s.metrics.requests.With(labels).Inc()
	s.metrics.latency.With(labels).Observe(time.Since(start).Seconds())
}

// MetricsHandler serves the server's series, and those of the collectors
// given to RegisterMetrics, in the Prometheus text format. Serve it on a
// listener of its own (serve --metrics-addr): the figures are for the
// operator, not for the public.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// RegisterMetrics adds collectors of the process, the database and the
// graders (which web does not own) to what MetricsHandler serves.
func (s *Server) RegisterMetrics(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := s.metrics.reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}
