package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// TestTextRuleAnswers (issue 45): texts that break the one text rule are
// the asker's 4xx naming the field, before the database: a login name with
// a NUL or of 3,000 letters (once a 500 and a 503 "storage full" on
// PostgreSQL), a finish's technique with a NUL, a collection's name with a
// C1 control character.
func TestTextRuleAnswers(t *testing.T) {
	e := newSecEnv(t, Config{RateLimit: 0})
	_, password := e.user("zoe", account.RolePlayer)
	b := e.browser()
	for name, says := range map[string]string{"zo\x00e": "NUL character", strings.Repeat("z", 3000): "3000 characters"} {
		status, body, _ := b.form("/login", "/login", url.Values{"name": {name}, "password": {password}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, says) {
			t.Errorf("login as %.10q...: %d, want 422 saying %q", name, status, says)
		}
	}
	tok := e.token("zoe")
	auth := []string{"Authorization", "Bearer " + tok}
	status, body, _ := b.do(http.MethodPost, "/api/collections", `{"name": "a\u0085b"}`, auth...)
	if status != http.StatusBadRequest || !strings.Contains(body, "C1 control character") {
		t.Errorf("a collection named with U+0085: %d %s, want 400", status, body)
	}
	b.do(http.MethodPost, "/api/puzzles", puzzleBody(easy), auth...)
	status, body, _ = b.do(http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`, auth...)
	var a struct{ ID int64 }
	if err := json.Unmarshal([]byte(body), &a); err != nil || status != http.StatusCreated && status != http.StatusOK {
		t.Fatalf("start: %d %s", status, body)
	}
	status, body, _ = b.do(http.MethodPost, "/api/attempts/"+strconv.FormatInt(a.ID, 10), `{"outcome": "gave_up", "techniques": ["X-Wing\u0000"]}`, auth...)
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "techniques") {
		t.Errorf("a finish with a NUL in a technique: %d %s, want 422 naming the field", status, body)
	}
}
