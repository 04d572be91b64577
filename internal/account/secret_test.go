package account

import (
	"testing"
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
