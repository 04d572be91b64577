package account

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/alexedwards/argon2id"
)

// passwordParams are argon2id's costs: OWASP's recommended minimum (19 MiB,
// two passes, one lane), about 30 ms a hash on this project's 2-core test
// machine, so a login costs little and a stolen hash much.
var passwordParams = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// HashPassword returns password's argon2id hash with its parameters and salt
// (the PHC string form).
func HashPassword(password string) (string, error) {
	return argon2id.CreateHash(password, passwordParams)
}

// CheckPasswordHash reports whether password matches hash (a constant-time
// comparison). An empty or malformed hash matches nothing.
func CheckPasswordHash(password, hash string) bool {
	if hash == "" {
		// Spend the time of a real check, so that a name without a
		// password answers as slowly as a wrong password.
		_, _ = argon2id.ComparePasswordAndHash(password, dummyHash)
		return false
	}
	ok, err := argon2id.ComparePasswordAndHash(password, hash)
	return err == nil && ok
}

// dummyHash is checked against for names that do not exist.
var dummyHash = newDummyHash()

func newDummyHash() string {
	h, err := HashPassword("not a password of anyone")
	if err != nil {
		panic(err)
	}
	return h
}

// testPasswordParams are argon2id's cheapest costs (8 KiB, one pass): a
// test process that makes and logs in hundreds of accounts spends
// milliseconds on their hashes instead of minutes (UseTestCost).
var testPasswordParams = &argon2id.Params{Memory: 8, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// UseTestCost makes HashPassword, and the check of an unknown name, use
// argon2id's cheapest costs for the rest of the process; hashes made
// before still check at their own costs. It is for the TestMain of test
// packages that make accounts, and is called before any test runs. It
// panics outside a test binary (testing.Testing), so that no server or
// command can ever hash a password at the test cost; there is no setting
// or variable that turns it on.
func UseTestCost() {
	if !testing.Testing() {
		panic("account.UseTestCost called outside a test binary")
	}
	passwordParams = testPasswordParams
	dummyHash = newDummyHash()
}

// DummyCheck spends the time of a password check, for a login with an
// unknown name, so that its answer takes as long as a wrong password's.
func DummyCheck(password string) { CheckPasswordHash(password, "") }

// tokenBytes is the randomness of session and API tokens.
const tokenBytes = 32

// TokenPrefix begins every API token, so that one found in a log or a
// repository is recognisable.
const TokenPrefix = "sdk_"

// NewAPIToken returns a new API token (shown once) and the hash to store.
func NewAPIToken() (token string, hash []byte) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand)
	token = TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the SHA-256 of a token: what the database keeps. A
// token is 256 random bits, so a fast hash is enough to make a copy of the
// table useless.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// ErrBadCookie is a session cookie that was not made by this archive (a
// forged, truncated or foreign value).
var ErrBadCookie = errors.New("session cookie not signed by this archive")

// A Signer makes and reads session cookies: a random token and its
// HMAC-SHA256 under the archive's secret. A cookie that fails the check is
// refused before the database is asked; one that passes names the session
// by the token's hash.
type Signer struct{ secret []byte }

// NewSigner returns a Signer with secret (the archive's; see store.Secret).
// An empty secret gets a random one, good for this process only.
func NewSigner(secret []byte) Signer {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		rand.Read(secret)
	}
	// A key of its own, derived, so that a session cookie is never a valid
	// CSRF token or the reverse.
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("sudoku session cookie"))
	return Signer{secret: m.Sum(nil)}
}

const macBytes = 16

// NewSession returns a new session's cookie value and the hash of its
// token, to store.
func (s Signer) NewSession() (cookie string, hash []byte) {
	b := make([]byte, tokenBytes)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	return token + "." + base64.RawURLEncoding.EncodeToString(s.mac(token)), HashToken(token)
}

func (s Signer) mac(token string) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(token))
	return m.Sum(nil)[:macBytes]
}

// Session checks a cookie's signature and returns its token's hash.
func (s Signer) Session(cookie string) ([]byte, error) {
	token, sig, ok := strings.Cut(cookie, ".")
	if !ok || len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return nil, ErrBadCookie
	}
	// Strict: a signature's last character carries unused bits that a
	// lenient decoder ignores, so one cookie would have several spellings.
	mac, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(mac, s.mac(token)) {
		return nil, ErrBadCookie
	}
	return HashToken(token), nil
}
