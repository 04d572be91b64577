// Package web is the HTTP face of the archive: the JSON API and the HTML
// pages, served by echo. It depends on the archive only through the Archive
// interface it declares; cmd/sudoku passes in a *store.DB.
package web

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Archive is what the server needs of the puzzle store.
type Archive interface {
	// Submit archives p (givens already solved and measured). If its givens
	// are archived already, it bumps their submission count instead and
	// returns the stored puzzle with duplicate true. It returns only once the
	// change is durably committed.
	Submit(ctx context.Context, p sudoku.Puzzle) (stored sudoku.Puzzle, duplicate bool, err error)
	// Puzzle returns one puzzle, or sudoku.ErrNotFound.
	Puzzle(ctx context.Context, id int64) (sudoku.Puzzle, error)
	// List returns one page, or sudoku.ErrInvalidCursor.
	List(ctx context.Context, q sudoku.ListQuery) (sudoku.Page, error)
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
}

// Config tunes a Server. The zero value is usable.
type Config struct {
	// RateLimit is the number of writes (POSTs) per second allowed per
	// client address, with a burst of a few times that; 0 turns it off.
	RateLimit float64
	// Logger receives request logs and 5xx errors; nil means slog.Default().
	Logger *slog.Logger
}

// Server serves the archive over HTTP.
type Server struct {
	echo    *echo.Echo
	archive Archive
	cfg     Config
	log     *slog.Logger
}

// New returns a server over archive with its routes in place.
func New(archive Archive, cfg Config) *Server {
	s := &Server{echo: echo.New(), archive: archive, cfg: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.routes()
	return s
}

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }
