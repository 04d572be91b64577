package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/version"
	"github.com/sudoku-archive/sudoku/templates"
)

// SchemaReader is what /readyz asks of an archive that can tell its
// schema version and the one this binary carries (*store.DB).
type SchemaReader interface {
	// Schema returns the database's schema version and this binary's.
	Schema(ctx context.Context) (current, known int64, err error)
}

// readyz answers 200 "ready" when the database answers and its schema is
// the one this binary carries (migrations current), 503 with the reason
// otherwise: a load balancer sends traffic only to ready servers.
func (s *Server) readyz(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.archive.Ping(ctx); err != nil {
		if s.probeLeft(c, err) {
			return nil
		}
		return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable").SetInternal(err)
	}
	if sr := s.parts.Schema; sr != nil {
		current, known, err := sr.Schema(ctx)
		if err != nil {
			if s.probeLeft(c, err) {
				return nil
			}
			return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable").SetInternal(err)
		}
		if current != known {
			return echo.NewHTTPError(http.StatusServiceUnavailable,
				fmt.Sprintf("database schema %d, this binary's is %d", current, known))
		}
	}
	return c.String(http.StatusOK, "ready")
}

// signupsOpen lets sign-up through unless it is closed (serve
// --signups=false): then /signup answers 403 with a page that says so,
// whatever the method.
func (s *Server) signupsOpen(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.cfg.ClosedSignups {
			return next(c)
		}
		p, _ := playerOf(c)
		return s.render(c, http.StatusForbidden, templates.SignupClosedPage(p))
	}
}

// buildOf is the build the server runs: cfg.Version, else this binary's.
func buildOf(cfg Config) version.Info {
	if cfg.Version == (version.Info{}) {
		return version.Get()
	}
	return cfg.Version
}
