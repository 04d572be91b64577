package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/templates"
)

// errorPage answers a failed page request (not /api) with status and a
// message safe to show, as an HTML page in the site's layout.
func (s *Server) errorPage(c echo.Context, status int, msg string) error {
	title := http.StatusText(status)
	if title == "" {
		title = "Error"
	}
	if msg == "" {
		msg = defaultErrorMessage(status)
	}
	return s.render(c, status, templates.ErrorPage(templates.ErrorView{Status: status, Title: title, Message: msg}))
}

// defaultErrorMessage says something useful when the error carried no
// message of its own.
func defaultErrorMessage(status int) string {
	switch {
	case status == http.StatusNotFound:
		return "There is nothing at this address. It may have been mistyped."
	case status == http.StatusTooManyRequests:
		return "Too many submissions in a short time. Wait a moment and try again."
	case status >= 500:
		return "Something went wrong on our side. Please try again in a moment."
	default:
		return "The request could not be handled."
	}
}
