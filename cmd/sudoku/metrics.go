package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// metricsSource is what the metrics read of the database: its pools and
// the grade queue (*store.DB).
type metricsSource interface {
	PoolStats() map[string]sql.DBStats
	GradeQueue(ctx context.Context) (n int64, oldest time.Time, err error)
}

// archiveCollector reports the database's pools, the grade queue and this
// server's graders at each scrape (docs/metrics.md).
type archiveCollector struct {
	db      metricsSource
	graders *bulk.Graders // nil: this server runs none

	open, inUse, idle, maxOpen, waits, waited, closedIdle, closedLife *prometheus.Desc
	queue, oldest, busy, workers, graded, up                          *prometheus.Desc
}

func newArchiveCollector(db metricsSource, g *bulk.Graders) *archiveCollector {
	pool := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("sudoku_db_"+name, help+" (sql.DBStats), by pool: writer or reader.", []string{"pool"}, nil)
	}
	one := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	return &archiveCollector{
		db: db, graders: g,
		open:       pool("open_connections", "Connections open, in use or idle"),
		inUse:      pool("in_use_connections", "Connections in use"),
		idle:       pool("idle_connections", "Connections idle"),
		maxOpen:    pool("max_open_connections", "The pool's bound on open connections, 0 for none"),
		waits:      pool("wait_count_total", "Times a query waited for a free connection"),
		waited:     pool("wait_duration_seconds_total", "Time spent waiting for a free connection"),
		closedIdle: pool("max_idle_closed_total", "Connections closed as idle beyond the pool's idle bound"),
		closedLife: pool("max_lifetime_closed_total", "Connections closed at the end of their lifetime"),
		queue:      one("sudoku_grade_queue_length", "Puzzles archived and waiting for their grade, in the database (all servers' queue)."),
		oldest:     one("sudoku_grade_queue_oldest_age_seconds", "How long ago the oldest puzzle waiting for its grade was submitted; 0 when none waits."),
		busy:       one("sudoku_graders_busy", "This server's graders grading a puzzle at the scrape."),
		workers:    one("sudoku_graders", "This server's graders (serve --graders)."),
		graded:     one("sudoku_graded_total", "Puzzles this server's graders graded and committed."),
		up:         one("sudoku_db_up", "1 when the last scrape could read the grade queue, 0 when the database did not answer."),
	}
}

// Describe sends every series' description.
func (c *archiveCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.open, c.inUse, c.idle, c.maxOpen, c.waits, c.waited, c.closedIdle, c.closedLife,
		c.queue, c.oldest, c.busy, c.workers, c.graded, c.up} {
		ch <- d
	}
}

// Collect reads the figures now. The grade queue is two reads of the
// pending index, bounded by a second so a slow database cannot hold the
// scrape.
func (c *archiveCollector) Collect(ch chan<- prometheus.Metric) {
	for name, s := range c.db.PoolStats() {
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, name)
		}
		count := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, name)
		}
		gauge(c.open, float64(s.OpenConnections))
		gauge(c.inUse, float64(s.InUse))
		gauge(c.idle, float64(s.Idle))
		gauge(c.maxOpen, float64(s.MaxOpenConnections))
		count(c.waits, float64(s.WaitCount))
		count(c.waited, s.WaitDuration.Seconds())
		count(c.closedIdle, float64(s.MaxIdleClosed))
		count(c.closedLife, float64(s.MaxLifetimeClosed))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	up := 1.0
	if n, oldest, err := c.db.GradeQueue(ctx); err != nil {
		up = 0
	} else {
		age := 0.0
		if !oldest.IsZero() {
			age = max(0, time.Since(oldest).Seconds())
		}
		ch <- prometheus.MustNewConstMetric(c.queue, prometheus.GaugeValue, float64(n))
		ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, age)
	}
	ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up)
	if g := c.graders; g != nil {
		ch <- prometheus.MustNewConstMetric(c.busy, prometheus.GaugeValue, float64(g.Busy()))
		ch <- prometheus.MustNewConstMetric(c.workers, prometheus.GaugeValue, float64(g.WorkerCount()))
		ch <- prometheus.MustNewConstMetric(c.graded, prometheus.CounterValue, float64(g.Graded()))
	}
}

// listenMetrics binds serve --metrics-addr, before the archive is opened,
// so that an address that cannot be bound (taken, bogus) ends the command
// at once with the reason; "" binds nothing (a nil listener).
func listenMetrics(addr string) (net.Listener, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: metrics: listen on %s: %w", addr, err)
	}
	return ln, nil
}

// serveMetrics serves srv's series, the archive's and the process's on
// ln, at /metrics only, until ctx is done. It returns once it serves;
// done is closed when it has stopped.
func serveMetrics(ctx context.Context, ln net.Listener, srv *web.Server, db metricsSource, g *bulk.Graders, log *slog.Logger) (done <-chan struct{}, err error) {
	if err := srv.RegisterMetrics(newArchiveCollector(db, g),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", srv.MetricsHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	log.Info("metrics listening", slog.String("addr", ln.Addr().String()))
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics", slog.Any("err", err))
		}
	}()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	return stopped, nil
}
