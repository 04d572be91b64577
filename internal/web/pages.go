package web

import "github.com/labstack/echo/v4"

// INTERIM: the pages work (issue 4) replaces these.

func (s *Server) home(c echo.Context) error       { return echo.ErrNotImplemented }
func (s *Server) submitForm(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) history(c echo.Context) error    { return echo.ErrNotImplemented }
func (s *Server) puzzlePage(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) stats(c echo.Context) error      { return echo.ErrNotImplemented }
