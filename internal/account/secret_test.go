package account

import (
	"testing"

	"github.com/alexedwards/argon2id"
)

// TestSessionOneSpelling: a signed cookie is accepted as issued and refused
// with any other last character, including the spellings that decode to the
// same signature bytes when the unused trailing bits are ignored.
func TestSessionOneSpelling(t *testing.T) {
	s := NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	for range 50 {
		cookie, hash := s.NewSession()
		got, err := s.Session(cookie)
		if err != nil || string(got) != string(hash) {
			t.Fatalf("issued cookie refused: %v", err)
		}
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		for _, c := range alphabet {
			forged := cookie[:len(cookie)-1] + string(c)
			if forged == cookie {
				continue
			}
			if _, err := s.Session(forged); err == nil {
				t.Fatalf("%q accepted as well as %q", forged, cookie)
			}
		}
		if _, err := s.Session(cookie + "A"); err == nil {
			t.Fatal("a longer signature accepted")
		}
	}
}

// TestPasswordCost checks the costs HashPassword uses in production
// (this package's tests never call UseTestCost; the tests of the packages
// that make many accounts do): OWASP's minimum, 19 MiB and two passes on
// one lane, for a password and for the dummy hash an unknown name is
// checked against.
func TestPasswordCost(t *testing.T) {
	want := argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	for _, hash := range []string{h, dummyHash} {
		p, _, _, err := argon2id.DecodeHash(hash)
		if err != nil {
			t.Fatal(err)
		}
		if *p != want {
			t.Errorf("hash %s: costs %+v, want %+v", hash, *p, want)
		}
	}
}
