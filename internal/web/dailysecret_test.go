package web

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
)

// testDailySecret is the fakes' daily secret: the store makes a random
// one per archive (store.DB.DailySecret).
var testDailySecret = bytes.Repeat([]byte{7}, daily.SecretBytes)

func (f *fakeArchive) DailySecret(context.Context) ([]byte, error) { return testDailySecret, nil }

func (n *nullArchive) DailySecret(context.Context) ([]byte, error) { return testDailySecret, nil }

// TestDailyRuleSaidAlike (issue 45): the 400 of a date out of range, the
// 404 of a date to come and the 404 of a date no server chose state the
// same rule (daily.Rule), which docs/api.md quotes.
func TestDailyRuleSaidAlike(t *testing.T) {
	s, _ := newTestServer(t, Config{NoDaily: true})
	today := daily.Today(time.Now())
	for _, c := range []struct {
		date string
		want int
	}{
		{daily.Key(today.AddDate(0, 0, 2)), http.StatusBadRequest},
		{daily.Key(today.AddDate(0, 0, 1)), http.StatusNotFound},
		{daily.Key(today.AddDate(0, 0, -30)), http.StatusNotFound},
	} {
		rec := get(t, s, "/api/daily?date="+c.date)
		if msg := decode[apiErr](t, rec).Error; rec.Code != c.want || !strings.Contains(msg, daily.Rule) {
			t.Errorf("%s: %d %q, want %d stating the rule", c.date, rec.Code, msg, c.want)
		}
	}
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), daily.Rule) {
		t.Errorf("docs/api.md does not quote the date rule %q", daily.Rule)
	}
}
