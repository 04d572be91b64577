package web

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestWrongDigitsAgree (issue 45): the hint's 422 counts the wrong digits
// in words that agree with the count: "1 of your digits is", "2 … are".
func TestWrongDigitsAgree(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for n, want := range map[int]string{1: "1 of your digits is not the solution's", 2: "2 of your digits are not the solution's"} {
		wrong := []byte(easy)
		for _, i := range []int{0, 80}[:n] {
			wrong[i] = '1' + (easySolution[i]-'0')%9 // another digit than the solution's
		}
		b, _ := json.Marshal(map[string]string{"puzzle": easy, "progress": string(wrong)})
		rec := post(t, s, "/api/hint", string(b))
		if msg := decode[apiErr](t, rec).Error; rec.Code != http.StatusUnprocessableEntity || msg != want {
			t.Errorf("%d wrong: %d %q, want %q", n, rec.Code, msg, want)
		}
	}
}
