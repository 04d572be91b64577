package account

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const (
	givens   = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	solution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)

func TestCheckSolved(t *testing.T) {
	swap := func(s string, i, j int) string {
		b := []byte(s)
		b[i], b[j] = b[j], b[i]
		return string(b)
	}
	for _, tc := range []struct {
		name, grid string
		ok         bool
	}{
		{"the solution", solution, true},
		{"short", solution[:80], false},
		{"a blank", "." + solution[1:], false},
		{"a given changed", swap(solution, 2, 3), false},      // cell 2 is the given 3
		{"a repeat in a column", swap(solution, 0, 1), false}, // no givens there; rows stay whole, columns do not
		{"letters", strings.Repeat("a", 81), false},
	} {
		err := CheckSolved(givens, tc.grid)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrWrongGrid) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestFinishCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       Finish
		elapsed time.Duration
		ok      bool
		seconds int64
	}{
		{"capped by the clock", Finish{Outcome: OutcomeGaveUp, ActiveSeconds: 500}, 90 * time.Second, true, 90},
		{"within the clock", Finish{Outcome: OutcomeGaveUp, ActiveSeconds: 60}, 90 * time.Second, true, 60},
		{"solved needs a grid", Finish{Outcome: OutcomeSolved}, time.Hour, false, 0},
		{"absurd", Finish{Outcome: OutcomeGaveUp, ActiveSeconds: MaxSeconds + 1}, time.Hour, false, 0},
		{"negative", Finish{Outcome: OutcomeGaveUp, ActiveSeconds: -1}, time.Hour, false, 0},
		{"negative checks", Finish{Outcome: OutcomeGaveUp, Checks: -1}, time.Hour, false, 0},
		{"open", Finish{Outcome: OutcomeOpen}, time.Hour, false, 0},
		{"a technique on two lines", Finish{Outcome: OutcomeGaveUp, Techniques: []string{"a\nb"}}, time.Hour, false, 0},
	} {
		got, err := tc.f.Check(tc.elapsed)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrBadFinish) || tc.ok && got.ActiveSeconds != tc.seconds {
			t.Errorf("%s: %+v, %v", tc.name, got, err)
		}
	}
	if got, _ := (Finish{Outcome: OutcomeGaveUp, Techniques: []string{"X-Wing", "X-Wing"}}).Check(time.Hour); got.Hints != 2 {
		t.Errorf("hints %d, want at least the techniques' 2", got.Hints)
	}
}

func TestNamesPasswordsRoles(t *testing.T) {
	for name, ok := range map[string]bool{"ann": true, "Zoë_2.b-c": true, "a": false, "a b": false, "<x>": false, strings.Repeat("a", 33): false} {
		if err := CheckName(name); (err == nil) != ok {
			t.Errorf("CheckName(%q) = %v", name, err)
		}
	}
	if CheckPassword("123456789") == nil || CheckPassword("1234567890") != nil || CheckPassword(strings.Repeat("x", MaxPassword+1)) == nil {
		t.Error("password rules")
	}
	if _, err := ParseRole("king"); err == nil {
		t.Error("ParseRole(king)")
	}
	if !RoleAdmin.AtLeast(RoleModerator) || RolePlayer.AtLeast(RoleModerator) {
		t.Error("role order")
	}
	h, err := HashPassword("correct horse battery")
	if err != nil || !strings.HasPrefix(h, "$argon2id$") {
		t.Fatalf("hash %q, %v", h, err)
	}
	if !CheckPasswordHash("correct horse battery", h) || CheckPasswordHash("wrong", h) || CheckPasswordHash("x", "") || CheckPasswordHash("x", "garbage") {
		t.Error("password check")
	}
}

func TestSigner(t *testing.T) {
	s := NewSigner([]byte("secret of this archive, 32 bytes"))
	cookie, hash := s.NewSession()
	if got, err := s.Session(cookie); err != nil || string(got) != string(hash) {
		t.Fatalf("own cookie: %v", err)
	}
	last := "A"
	if strings.HasSuffix(cookie, "A") {
		last = "B"
	}
	other := NewSigner([]byte("secret of another archive, 32 by"))
	for _, bad := range []string{"", "x", cookie[:len(cookie)-1] + last, strings.Replace(cookie, ".", "", 1), "." + cookie} {
		if _, err := s.Session(bad); !errors.Is(err, ErrBadCookie) {
			t.Errorf("Session(%q) = %v, want ErrBadCookie", bad, err)
		}
	}
	// The signature's last character carries 4 bits and 2 unused ones:
	// changing only those is another cookie, refused.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	twin := cookie[:len(cookie)-1] + string(alphabet[strings.IndexByte(alphabet, cookie[len(cookie)-1])^1])
	if _, err := s.Session(twin); !errors.Is(err, ErrBadCookie) {
		t.Errorf("a cookie differing in the signature's unused bits: %v, want ErrBadCookie", err)
	}
	if _, err := other.Session(cookie); !errors.Is(err, ErrBadCookie) {
		t.Error("another archive's signer accepts the cookie")
	}
	tok, h := NewAPIToken()
	if !strings.HasPrefix(tok, TokenPrefix) || string(HashToken(tok)) != string(h) {
		t.Error("API token and its hash")
	}
}
