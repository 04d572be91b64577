package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/version"
)

// busy tells the graders' gate about every request while it is served, so
// the graders take only the cores requests leave idle.
func busy(a *bulk.Activity) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			a.Enter()
			defer a.Leave()
			return next(c)
		}
	}
}

// gate is the graders' gate the busy middleware enters, nil without one.
func (s *Server) gate() *bulk.Activity {
	if g := s.cfg.Graders; g != nil {
		return g.Gate
	}
	return nil
}

// healthVerbose is the answer to GET /healthz?verbose.
type healthVerbose struct {
	// Status is "ok", or "degraded" while the graders cannot commit
	// (a full disk, the database refusing writes) or the last write
	// asked of the server was refused for a full disk (writeHealth,
	// whatever the graders): Reason says why, since when.
	Status string     `json:"status"`
	Reason string     `json:"reason,omitempty"`
	Since  *time.Time `json:"since,omitempty"`
	// GradeQueue is how many puzzles wait for their grade, null when
	// this server runs no graders.
	GradeQueue *int64 `json:"grade_queue"`
	Graders    int    `json:"graders"`
	// Build is the running binary's version, commit and Go toolchain.
	Build version.Info `json:"build"`
}

// healthzVerbose answers /healthz?verbose: the database answers, and the
// grade queue.
func (s *Server) healthzVerbose(c echo.Context) error {
	h := healthVerbose{Status: "ok", Build: buildOf(s.cfg)}
	if g := s.cfg.Graders; g != nil {
		n, err := g.Pending(c.Request().Context())
		if err != nil {
			return fmt.Errorf("count the grade queue: %w", err)
		}
		h.GradeQueue, h.Graders = &n, g.WorkerCount()
		if reason, since := g.Degraded(); reason != "" {
			h.Status, h.Reason, h.Since = "degraded", reason, &since
		}
	}
	if reason, since := s.writes.degraded(); reason != "" && h.Status == "ok" {
		h.Status, h.Reason, h.Since = "degraded", reason, &since
	}
	return c.JSON(http.StatusOK, h)
}
