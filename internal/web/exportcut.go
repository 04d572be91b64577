package web

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"syscall"

	"github.com/labstack/echo/v4"
)

// statusClientClosed is the status a request is counted under when its
// client hung up before the answer was whole (nginx's 499): the client's
// doing, so never a 5xx in sudoku_http_requests_total.
const statusClientClosed = 499

// cutKey holds, on a request whose answer is cut off (panic
// http.ErrAbortHandler, which skips every middleware's return), the status
// observe counts it under.
const cutKey = "web.cutStatus"

// exportCut logs an export that ended before its last row, by whose
// doing, and marks the status observe counts it under: a client hanging
// up is an everyday event (INFO, 499); one that stops reading is cut off
// after ExportStall (WARN, 499); anything else is the archive failing
// (ERROR, 500). The caller then aborts the connection.
func (s *Server) exportCut(c echo.Context, rows int64, err error) {
	req := c.Request()
	attrs := []slog.Attr{slog.String("path", req.URL.Path), slog.String("query", req.URL.RawQuery),
		slog.Int64("rows_sent", rows), slog.Any("err", err)}
	level, msg, status := slog.LevelError, "export failed: the download was cut short", http.StatusInternalServerError
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		level, msg, status = slog.LevelWarn, "export failed: the client stopped reading", statusClientClosed
	case hungUp(req.Context(), err):
		level, msg, status = slog.LevelInfo, "export ended early: the client hung up", statusClientClosed
	}
	c.Set(cutKey, status)
	s.log.LogAttrs(req.Context(), level, msg, attrs...)
}

// hungUp reports whether err, ending a response, means the client went
// away: its request's context ended (net/http cancels it when the
// connection closes) or the connection was broken or reset under a write.
func hungUp(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed)
}
