package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/templates"
)

// The login throttle: this many failures for one name within the window
// refuse that name (429) until the window passes.
const (
	loginFailures = 5
	loginWindow   = 15 * time.Minute
)

// msgBadLogin is the one answer to a wrong name and a wrong password.
const msgBadLogin = "wrong name or password"

// signupPage shows the sign-up form.
func (s *Server) signupPage(c echo.Context) error {
	p, _ := playerOf(c)
	return s.render(c, http.StatusOK, templates.SignupPage(templates.AccountForm{CSRF: csrfToken(c), Player: p}))
}

// signupForm makes an account: the browser's anonymous player, named, its
// history kept; or a new player. The session id changes.
func (s *Server) signupForm(c echo.Context) error {
	name, password := c.FormValue("name"), c.FormValue("password")
	p, _ := playerOf(c)
	form := templates.AccountForm{CSRF: csrfToken(c), Name: name, Player: p}
	fail := func(msg string) error {
		form.Error = msg
		return s.render(c, http.StatusUnprocessableEntity, templates.SignupPage(form))
	}
	if err := account.CheckName(name); err != nil {
		return fail(err.Error())
	}
	if err := account.CheckPassword(password); err != nil {
		return fail(err.Error())
	}
	hash, err := account.HashPassword(password)
	if err != nil {
		return err
	}
	anon := int64(0)
	if p.Name == "" {
		anon = p.ID
	}
	cookie, session := s.signer.NewSession()
	_, err = s.players.Signup(c.Request().Context(), anon, name, hash, sessionOf(c), session, time.Now().Add(sessionLife))
	if errors.Is(err, account.ErrNameTaken) {
		return fail("the name " + strconv.Quote(name) + " is taken: choose another")
	}
	if err != nil {
		return err
	}
	s.setSession(c, cookie)
	return c.Redirect(http.StatusSeeOther, "/me")
}

// loginPage shows the login form.
func (s *Server) loginPage(c echo.Context) error {
	p, _ := playerOf(c)
	return s.render(c, http.StatusOK, templates.LoginPage(templates.AccountForm{CSRF: csrfToken(c), Player: p,
		LoggedOut: c.QueryParam("logged_out") == "1" && p.Name == ""}))
}

// loginForm checks a name and password. A wrong name and a wrong password
// get the same answer in the same time; five failures for a name within
// loginWindow refuse that name (429) until the window passes, whether it
// exists or not. Each try is recorded as a failure before its password is
// checked (and forgotten if it was right), so tries sent all at once are
// held to the limit too. A login begins a new session (a new id), ending
// the browser's previous one.
func (s *Server) loginForm(c echo.Context) error {
	name, password := c.FormValue("name"), c.FormValue("password")
	ctx := c.Request().Context()
	form := templates.AccountForm{CSRF: csrfToken(c), Name: name}
	key := account.NameKey(name)
	now := time.Now()
	allowed, err := s.players.LoginTry(ctx, key, now, loginWindow, loginFailures)
	if err != nil {
		return err
	}
	if !allowed {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(loginWindow/time.Second)))
		form.Error = fmt.Sprintf("too many failed logins for this name: try again in %d minutes", int(loginWindow/time.Minute))
		return s.render(c, http.StatusTooManyRequests, templates.LoginPage(form))
	}
	p, hash, err := s.players.Credentials(ctx, name)
	if err != nil && !errors.Is(err, account.ErrNoPlayer) {
		return err
	}
	ok := false
	if err == nil && hash != "" && len(password) <= account.MaxPassword {
		ok = account.CheckPasswordHash(password, hash)
	} else {
		account.DummyCheck(password) // as slow as a wrong password
	}
	if !ok {
		form.Error = msgBadLogin
		return s.render(c, http.StatusUnprocessableEntity, templates.LoginPage(form))
	}
	if err := s.players.LoginSucceeded(ctx, key, now); err != nil {
		return err
	}
	cookie, session := s.signer.NewSession()
	if err := s.players.StartSession(ctx, p.ID, sessionOf(c), session, time.Now().Add(sessionLife)); err != nil {
		return err
	}
	s.setSession(c, cookie)
	return c.Redirect(http.StatusSeeOther, "/me")
}

// logout ends the session on the server and in the browser.
func (s *Server) logout(c echo.Context) error {
	if h := sessionOf(c); h != nil {
		if err := s.players.EndSession(c.Request().Context(), h); err != nil {
			return err
		}
	}
	s.setSession(c, "")
	// The login page then says so (issue 34: logging out said nothing).
	return c.Redirect(http.StatusSeeOther, "/login?logged_out=1")
}
