package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// apiTrace replays the search that measured a puzzle, step by step. The
// trace is computed once per puzzle in a turn of the search gate, kept
// compressed (traceCache), and sent compressed to clients that accept gzip;
// to others it is decompressed as it is sent. So its cost in memory is
// small and bounded however many clients download it at once, and however
// slowly they read.
func (s *Server) apiTrace(c echo.Context) error {
	p, err := s.puzzleParam(c)
	if err != nil {
		return err
	}
	if p.Rules != "" {
		return errVariantLogic(p.ID)
	}
	ctx := c.Request().Context()
	gz, err := s.arch.Trace(ctx, p.Givens)
	if err != nil {
		return fmt.Errorf("trace puzzle %d: %w", p.ID, err)
	}
	req := c.Request()
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if acceptsGzip(req) {
		h.Set(echo.HeaderContentEncoding, "gzip")
		h.Set(echo.HeaderContentLength, strconv.Itoa(len(gz)))
		c.Response().WriteHeader(http.StatusOK)
		if req.Method == http.MethodHead {
			return nil
		}
		_, err := c.Response().Write(gz)
		return err
	}
	c.Response().WriteHeader(http.StatusOK)
	if req.Method == http.MethodHead {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("trace puzzle %d: %w", p.ID, err)
	}
	_, err = io.Copy(c.Response(), zr)
	return err
}

// acceptsGzip reports whether the client takes a gzip-encoded response.
func acceptsGzip(req *http.Request) bool {
	for _, part := range strings.Split(req.Header.Get(echo.HeaderAcceptEncoding), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
