package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/templates"
)

// errorPage answers a failed page request (not /api) with status and a
// message safe to show (classify chose it; "" means one for the status), as
// an HTML page in the site's layout with a way on.
func (s *Server) errorPage(c echo.Context, status int, msg string) error {
	title := http.StatusText(status)
	if title == "" {
		title = "Error"
	}
	if msg == "" {
		msg = defaultErrorMessage(status)
	} else {
		msg = sentence(msg)
		if !strings.ContainsAny(msg[len(msg)-1:], ".!?") {
			msg += "."
		}
	}
	// The error handler runs after the middleware has ended the request's
	// context (the timeout middleware cancels it on return, and a timeout is
	// itself one of the errors shown here), and templ refuses to render under
	// a done context: render this page under one that is never cancelled.
	req := c.Request()
	c.SetRequest(req.WithContext(context.WithoutCancel(req.Context())))
	v := templates.ErrorView{Status: status, Title: title, Message: msg}
	if status == http.StatusServiceUnavailable && req.Method == http.MethodGet {
		v.Retry = req.URL.RequestURI() // a path of this site: the request's own
	}
	return s.render(c, status, templates.ErrorPage(v))
}

// defaultErrorMessage says something useful when the error carried no
// message of its own.
func defaultErrorMessage(status int) string {
	switch {
	case status == http.StatusNotFound:
		return "There is nothing at this address. It may have been mistyped, or the link is out of date."
	case status == http.StatusMethodNotAllowed:
		return "This address does not take that kind of request."
	case status == http.StatusTooManyRequests:
		return "Too many submissions in a short time. Wait a moment and try again."
	case status == http.StatusServiceUnavailable:
		return "The server is busy or the archive cannot take this right now. Please try again in a moment."
	case status >= 500:
		return "Something went wrong on our side. Please try again in a moment."
	default:
		return "The request could not be handled."
	}
}
