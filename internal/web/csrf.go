package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"
)

// The CSRF token travels in a cookie and, for each post, in the form's
// hidden field (or the X-CSRF-Token header); the two must match, and the
// token must carry the server's signature. A double-submit check alone
// accepts any equal pair, including one an attacker planted (a cookie set
// from a sibling host, or a plain-HTTP answer on the path); a planted token
// without the signature is refused. The token is never read from the query
// string, where it would leak into logs and Referer headers.
const (
	csrfCookie = "_csrf"
	csrfField  = "_csrf"
	csrfKey    = "csrf" // where handlers find the token (csrfToken)
	csrfNonce  = 18
	csrfMAC    = 18
)

// csrfSigner makes and checks tokens: a random nonce and its HMAC-SHA256
// under the server's secret, base64url, 48 characters.
type csrfSigner struct{ secret []byte }

func newCSRFSigner(secret []byte) csrfSigner {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		rand.Read(secret) // never fails (crypto/rand)
	}
	return csrfSigner{secret: secret}
}

func (s csrfSigner) mac(nonce []byte) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write(nonce)
	return m.Sum(nil)[:csrfMAC]
}

func (s csrfSigner) token() string {
	b := make([]byte, csrfNonce, csrfNonce+csrfMAC)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(append(b, s.mac(b)...))
}

func (s csrfSigner) valid(t string) bool {
	b, err := base64.RawURLEncoding.DecodeString(t)
	if err != nil || len(b) != csrfNonce+csrfMAC {
		return false
	}
	return hmac.Equal(b[csrfNonce:], s.mac(b[:csrfNonce]))
}

// errCSRF is the answer to a form post without a valid token.
var errCSRF = echo.NewHTTPError(http.StatusForbidden,
	"this form has expired or did not come from this site: reload the page and submit it again")

// csrfCheck gives every page a token (the cookie's, if the server signed
// it, else a new one) and checks it on posts. It is route middleware of
// the HTML routes only: the API is guarded by crossOrigin, and an unknown
// route or method gets its 404 or 405, not a 403.
func (s *Server) csrfCheck(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		var token string
		if ck, err := req.Cookie(csrfCookie); err == nil && s.csrf.valid(ck.Value) {
			token = ck.Value
		}
		switch req.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			if token == "" {
				token = s.csrf.token()
			}
			s.setCSRFCookie(c, token)
			c.Set(csrfKey, token)
			return next(c)
		}
		// uploadLimit parsed a multipart body already; this parses an
		// urlencoded one, within bodyLimit.
		if err := req.ParseForm(); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return tooLarge(tooBig.Limit)
			}
			return badRequest("the form could not be read: %v", err)
		}
		sent := req.PostForm.Get(csrfField)
		if sent == "" {
			sent = req.Header.Get(echo.HeaderXCSRFToken)
		}
		// A browser says whether the post comes from this site's own
		// pages: then the token is not needed (crossOrigin has refused
		// every other site).
		sameOrigin := req.Header.Get("Sec-Fetch-Site") == "same-origin"
		if !sameOrigin && (token == "" || !hmac.Equal([]byte(sent), []byte(token))) {
			return errCSRF
		}
		if token == "" {
			token = s.csrf.token()
			s.setCSRFCookie(c, token)
		}
		c.Set(csrfKey, token)
		return next(c)
	}
}

// setCSRFCookie hands the browser token, for a day, with the session
// cookie's flags.
func (s *Server) setCSRFCookie(c echo.Context, token string) {
	c.SetCookie(&http.Cookie{
		Name: csrfCookie, Value: token, Path: "/", MaxAge: 86400,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(c),
	})
}
