package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/templates"
)

// The login throttle (OWASP's Authentication cheat sheet): within the
// window, five failures for one name refuse that name (429) until the
// window passes, except from a browser with the name's device cookie;
// twenty failures from one client address refuse that address, across
// names (password spraying); five failures with one device cookie refuse
// that cookie.
const (
	loginFailures        = 5
	loginAddressFailures = 20
	loginDeviceFailures  = 5
	loginWindow          = 15 * time.Minute
)

// loginLimits are the throttle's limits as the store takes them.
var loginLimits = account.LoginLimits{Window: loginWindow, PerName: loginFailures, PerAddress: loginAddressFailures, PerDevice: loginDeviceFailures}

// deviceCookie is the signed device cookie (account.Signer.NewDevice) a
// successful login leaves for its name: its path is /login, the only page
// that reads it, and it lasts a year.
const (
	deviceCookie = "sudoku_device"
	deviceLife   = 365 * 24 * time.Hour
)

// throttleMessages say which limit refused a login.
var throttleMessages = map[account.Throttled]string{
	account.ThrottleName:    "too many failed logins for this name: try again in %d minutes (or from a browser this account logged in from before)",
	account.ThrottleAddress: "too many failed logins from your network address: try again in %d minutes",
	account.ThrottleDevice:  "too many failed logins from this browser: try again in %d minutes",
}

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
	if le := (*account.LookalikeError)(nil); errors.As(err, &le) {
		return fail(le.Error()) // issue 45: it names the account it looks like
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
// get the same answer in the same time; the throttle (loginLimits)
// refuses a name, an address or a device cookie (429) until the window
// passes, whether the name exists or not. Each try is recorded as a failure before its password is
// checked (and forgotten if it was right), so tries sent all at once are
// held to the limit too. A login begins a new session (a new id), ending
// the browser's previous one.
func (s *Server) loginForm(c echo.Context) error {
	name, password := c.FormValue("name"), c.FormValue("password")
	ctx := c.Request().Context()
	form := templates.AccountForm{CSRF: csrfToken(c), Name: name}
	if err := account.CheckLoginName(name); err != nil { // no player's name: never stored, not even by the throttle
		form.Error = err.Error()
		return s.render(c, http.StatusUnprocessableEntity, templates.LoginPage(form))
	}
	try := account.LoginAttempt{NameKey: account.NameKey(name), Address: clientAddress(c), At: time.Now()}
	if ck, err := c.Cookie(deviceCookie); err == nil {
		try.Device = s.signer.Device(ck.Value, try.NameKey)
	}
	refused, err := s.players.LoginTry(ctx, try, loginLimits)
	if err != nil {
		return err
	}
	if refused != account.ThrottleNone {
		s.metrics.loginThrottle.Inc()
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(loginWindow/time.Second)))
		form.Error = fmt.Sprintf(throttleMessages[refused], int(loginWindow/time.Minute))
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
		s.metrics.loginFailures.Inc()
		form.Error = msgBadLogin
		return s.render(c, http.StatusUnprocessableEntity, templates.LoginPage(form))
	}
	if err := s.players.LoginSucceeded(ctx, try); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: deviceCookie, Value: s.signer.NewDevice(try.NameKey), Path: "/login", MaxAge: int(deviceLife / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(c)})
	cookie, session := s.signer.NewSession()
	if err := s.players.StartSession(ctx, p.ID, sessionOf(c), session, time.Now().Add(sessionLife)); err != nil {
		return err
	}
	s.setSession(c, cookie)
	return c.Redirect(http.StatusSeeOther, "/me")
}

// clientAddress is who every limit counts a client by (the login
// throttle, the write rate limit, the export turns): the client's
// address (c.RealIP: the peer, or behind --trusted-proxy the address the
// proxy forwarded), an IPv6 address by its /64, which one subscriber
// holds whole.
func clientAddress(c echo.Context) string {
	a, err := netip.ParseAddr(c.RealIP())
	if err != nil {
		return c.RealIP()
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
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
