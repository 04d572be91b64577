package web

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// writeHealth remembers that the archive's storage refused a write (a full
// disk), from the requests' own answers, so that /healthz?verbose says
// "degraded" whatever the graders: with `serve --graders 0` nothing else
// wrote, and every health check stayed green while writes failed (issue
// 50). A write answered with success clears it.
type writeHealth struct {
	mu     sync.Mutex
	reason string
	since  time.Time
}

// refused records a write refused for want of storage.
func (w *writeHealth) refused(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reason == "" {
		w.since = time.Now().UTC()
	}
	w.reason = "writes: " + err.Error()
}

// answered clears the record once a write (any method but GET, HEAD and
// OPTIONS) succeeds.
func (w *writeHealth) answered(method string, status int) {
	if method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions || status >= 400 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reason = ""
}

// degraded says why writes fail, "" while they do not.
func (w *writeHealth) degraded() (reason string, since time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reason, w.since
}

// probeLeft answers a health probe whose client hung up before the
// database answered: that is the client leaving (a load balancer's probe
// timing out, 499 at DEBUG like every probe), not "database unavailable"
// logged as a WARN (issue 50).
func (s *Server) probeLeft(c echo.Context, err error) bool {
	ctx := c.Request().Context()
	if ctx.Err() == nil {
		return false
	}
	s.log.Debug("health probe ended: the client left", slog.String("path", c.Request().URL.Path), slog.Any("err", err))
	c.Response().WriteHeader(statusClientClosed)
	return true
}
