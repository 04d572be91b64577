package web

import (
	"log/slog"
	"math"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// The request log: one line per request, with its id (also the
// X-Request-Id response header, and on the request's `request failed`
// line), method, path, query, status, duration in milliseconds, size,
// client address, user agent and player. Health checks and 429s are
// logged at DEBUG: a load balancer's probes and a client hammering past
// its rate limit would otherwise bury everything else (serve
// --log-level debug shows them).

// quietPaths are the health checks, logged at DEBUG.
var quietPaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// maxRequestID is the longest X-Request-Id taken from a client (or a
// proxy such as nginx's $request_id, 32 hex digits); a longer or odd one
// is replaced by a new id.
const maxRequestID = 64

// requestID gives each request an id: the X-Request-Id it came with when
// that is short and plain, else a new random one; the response carries it
// in X-Request-Id.
func requestID() echo.MiddlewareFunc {
	rid := middleware.RequestIDWithConfig(middleware.RequestIDConfig{})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := rid(next)
		return func(c echo.Context) error {
			if id := c.Request().Header.Get(echo.HeaderXRequestID); id != "" && !plainID(id) {
				c.Request().Header.Del(echo.HeaderXRequestID)
			}
			return h(c)
		}
	}
}

// plainID reports whether id is at most maxRequestID letters, digits, '-',
// '_' or '.'.
func plainID(id string) bool {
	if len(id) > maxRequestID {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// idOf is the request's id (requestID).
func idOf(c echo.Context) string { return c.Response().Header().Get(echo.HeaderXRequestID) }

// requestLogger logs each request once it is answered.
func (s *Server) requestLogger() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogMethod: true, LogURIPath: true, LogStatus: true, LogLatency: true,
		LogRemoteIP: true, LogResponseSize: true, LogUserAgent: true,
		HandleError: true, // let handleError set the status before it is logged
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			s.writes.answered(v.Method, v.Status)
			level := slog.LevelInfo
			if v.Status == http.StatusTooManyRequests || quietPaths[v.URIPath] {
				level = slog.LevelDebug
			}
			ctx := c.Request().Context()
			if !s.log.Enabled(ctx, level) {
				return nil
			}
			var player int64
			if p, ok := playerOf(c); ok {
				player = p.ID
			}
			s.log.LogAttrs(ctx, level, "request",
				slog.String("id", idOf(c)),
				slog.String("method", v.Method), slog.String("path", v.URIPath),
				slog.String("query", c.Request().URL.RawQuery),
				slog.Int("status", v.Status), durationMS(v.Latency),
				slog.Int64("bytes", v.ResponseSize),
				slog.String("remote_ip", v.RemoteIP), slog.String("user_agent", v.UserAgent),
				slog.Int64("player", player))
			return nil
		},
	})
}

// durationMS is d as the attribute duration_ms, to the microsecond.
func durationMS(d time.Duration) slog.Attr {
	return slog.Float64("duration_ms", math.Round(float64(d)/1e3)/1e3)
}
