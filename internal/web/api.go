package web

import "github.com/labstack/echo/v4"

// INTERIM: the API work (issue 3) replaces these.

func (s *Server) apiSubmit(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) apiList(c echo.Context) error   { return echo.ErrNotImplemented }
func (s *Server) apiPuzzle(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) apiTrace(c echo.Context) error  { return echo.ErrNotImplemented }
func (s *Server) apiSolve(c echo.Context) error  { return echo.ErrNotImplemented }
