package web

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// Players is what the server needs of the archive's players, sessions and
// attempts (docs/players.md; Parts.Players, which *store.DB provides);
// without it the player routes are not served.
type Players interface {
	// NewPlayer makes an anonymous player and its session (the token's hash).
	NewPlayer(ctx context.Context, session []byte, expires time.Time) (account.Player, error)
	// SessionPlayer returns the player of a live session, or account.ErrNoPlayer.
	SessionPlayer(ctx context.Context, session []byte, now time.Time) (account.Player, error)
	// TokenPlayer returns the player of an API token's hash, or account.ErrNoPlayer.
	TokenPlayer(ctx context.Context, hash []byte) (account.Player, error)
	// Signup names the anonymous player anon (or a new one), ends the
	// session old and begins session; account.ErrNameTaken.
	Signup(ctx context.Context, anon int64, name, password string, old, session []byte, expires time.Time) (account.Player, error)
	// Credentials returns the player called name and its password hash.
	Credentials(ctx context.Context, name string) (account.Player, string, error)
	// StartSession begins session for player, ending old.
	StartSession(ctx context.Context, player int64, old, session []byte, expires time.Time) error
	// EndSession ends a session.
	EndSession(ctx context.Context, session []byte) error
	// LoginTry counts the failed logins of a try's name, address or
	// device within the limits' window and, below the limits, records
	// this one as a failure in the same transaction; it returns the limit
	// that refused it, account.ThrottleNone when it may check its password.
	LoginTry(ctx context.Context, a account.LoginAttempt, l account.LoginLimits) (account.Throttled, error)
	// LoginSucceeded forgets the try a: the password was right.
	LoginSucceeded(ctx context.Context, a account.LoginAttempt) error
	// StartAttempt opens an attempt, or returns the open one (created false).
	StartAttempt(ctx context.Context, player, puzzleID int64) (account.Attempt, bool, error)
	// FinishAttempt records an attempt's end.
	FinishAttempt(ctx context.Context, player, id int64, f account.Finish) (account.Attempt, error)
	// Attempts pages a player's attempts, newest first, before the id before.
	Attempts(ctx context.Context, player, before int64, limit int) ([]account.Attempt, error)
	// Summary returns a player's dashboard figures.
	Summary(ctx context.Context, player int64, today time.Time) (account.Summary, error)
	// ExportPlayer returns everything stored about a player.
	ExportPlayer(ctx context.Context, player int64) (account.Export, error)
	// DeletePlayer deletes a player, its attempts, sessions, tokens and
	// flags, and records it in the audit trail, by by.
	DeletePlayer(ctx context.Context, player int64, by moderation.Actor) error
	// Tokens lists a player's API tokens (ids and dates, never the tokens).
	Tokens(ctx context.Context, player int64) ([]account.Token, error)
	// RevokeToken deletes a player's API token, audited; account.ErrNoToken.
	RevokeToken(ctx context.Context, player, id int64, by moderation.Actor) error
}

// The session cookie and how long a session lasts: an anonymous player's
// history lives in it, so it is long.
const (
	sessionCookie = "sudoku_session"
	sessionLife   = 365 * 24 * time.Hour
)

// Where the request's player is kept in the echo context.
const (
	playerKey  = "web.player"  // account.Player, when one is known
	sessionKey = "web.session" // []byte, the hash of the browser's valid session
	rateKeyKey = "web.ratekey" // string, the rate limit's key for a token
)

// playerOf returns the request's player, if loadPlayer found one.
func playerOf(c echo.Context) (account.Player, bool) {
	p, ok := c.Get(playerKey).(account.Player)
	return p, ok
}

// sessionOf returns the hash of the request's live session, or nil.
func sessionOf(c echo.Context) []byte {
	h, _ := c.Get(sessionKey).([]byte)
	return h
}

// loadPlayer is the one middleware that knows who is asking: an API token
// (Authorization: Bearer) or the session cookie. A cookie that is forged,
// expired or of a deleted player is ignored: the request goes on without a
// player (and the first play makes a fresh one). A bad token is refused:
// whoever sends one means to act as someone.
func (s *Server) loadPlayer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if s.rowOf(c).class.noPlayer { // static files, /healthz
			return next(c)
		}
		ctx := req.Context()
		if auth := req.Header.Get(echo.HeaderAuthorization); auth != "" {
			token, ok := bearerToken(auth)
			if !ok {
				return echo.NewHTTPError(http.StatusUnauthorized, `the Authorization header must be "Bearer TOKEN" with a token from sudoku user token`)
			}
			hash := account.HashToken(token)
			p, err := s.players.TokenPlayer(ctx, hash)
			if errors.Is(err, account.ErrNoPlayer) {
				return echo.NewHTTPError(http.StatusUnauthorized, "unknown API token")
			}
			if err != nil {
				return err
			}
			c.Set(playerKey, p)
			c.Set(rateKeyKey, "token:"+hex.EncodeToString(hash[:12]))
			return next(c)
		}
		ck, err := req.Cookie(sessionCookie)
		if err != nil {
			return next(c)
		}
		hash, err := s.signer.Session(ck.Value)
		if err != nil {
			return next(c)
		}
		p, err := s.players.SessionPlayer(ctx, hash, time.Now())
		switch {
		case errors.Is(err, account.ErrNoPlayer):
		case err != nil:
			return err
		default:
			c.Set(playerKey, p)
			c.Set(sessionKey, hash)
		}
		return next(c)
	}
}

// bearerToken reads an Authorization header of the Bearer scheme: the
// scheme's name in any case (RFC 9110, 11.1), then one or more spaces,
// then the token.
func bearerToken(auth string) (string, bool) {
	scheme, token, ok := strings.Cut(auth, " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}

// need is the route middleware that declares who may use a route: a
// player of at least role. Without a player, the API answers 401 and a
// page sends to /login; a player below role gets 403.
func (s *Server) need(role account.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p, ok := playerOf(c)
			if !ok {
				if isAPIPath(c.Request().URL.Path) {
					return echo.NewHTTPError(http.StatusUnauthorized, "no player: play a puzzle, log in, or send Authorization: Bearer TOKEN")
				}
				return c.Redirect(http.StatusSeeOther, "/login")
			}
			if !p.Role.AtLeast(role) {
				return echo.NewHTTPError(http.StatusForbidden, "this needs the role "+string(role))
			}
			return next(c)
		}
	}
}

// ensurePlayer gives a request without a player a new anonymous one and
// its session cookie: the first play makes the player.
func (s *Server) ensurePlayer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, ok := playerOf(c); ok {
			return next(c)
		}
		cookie, hash := s.signer.NewSession()
		p, err := s.players.NewPlayer(c.Request().Context(), hash, time.Now().Add(sessionLife))
		if err != nil {
			return err
		}
		s.setSession(c, cookie)
		c.Set(playerKey, p)
		c.Set(sessionKey, hash)
		return next(c)
	}
}

// setSession hands the browser its session cookie; "" deletes it.
func (s *Server) setSession(c echo.Context, cookie string) {
	ck := &http.Cookie{
		Name: sessionCookie, Value: cookie, Path: "/", MaxAge: int(sessionLife / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookies(c),
	}
	if cookie == "" {
		ck.MaxAge = -1
	}
	c.SetCookie(ck)
}

// secureCookies reports whether the cookies of c's answer are Secure: with
// serve --secure-cookies, and whenever the client came over https (TLS to
// this server, or X-Forwarded-Proto from a trusted proxy: c.Scheme()).
func (s *Server) secureCookies(c echo.Context) bool {
	return s.cfg.SecureCookies || c.Scheme() == "https"
}
