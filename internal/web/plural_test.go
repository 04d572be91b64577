package web

import (
	"encoding/json"
	"net/http"
	"strings"
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

// TestImportPageSaysGradesPending (issue 45): the import's result page
// says the new puzzles' grades are pending, counted.
func TestImportPageSaysGradesPending(t *testing.T) {
	s, a := newBulkServer(t, Config{})
	a.Submit(t.Context(), measured(t, easy))
	cookie, token := csrfPair(t, s)
	rec := serve(s, upload{file: []byte(uploadFile), name: "p.txt", token: token, cookie: cookie}.request(t))
	doc := page(t, rec, http.StatusOK)
	if got := strings.Join(strings.Fields(tid(doc, "import-grades-pending").Text()), " "); !strings.Contains(got, "Grades are pending: the server grades the 2 new puzzles in the background") {
		t.Errorf("the import page on grades: %q", got)
	}
}
