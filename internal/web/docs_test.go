package web

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// docPath writes an echo route path as the docs do: /api/puzzles/{id},
// /static/ for the files under it.
func docPath(p string) string {
	p = regexp.MustCompile(`:(\w+)`).ReplaceAllString(p, "{$1}")
	return strings.TrimSuffix(p, "*")
}

// TestRoutesDocumented: every route of the route table (routes.go) is
// documented in docs/api.md or docs/pages.md, in backticks: "`METHOD path`"
// (like `POST /api/generate`), or for GET the path alone (`/stats`).
// HEAD answers as GET does, and the 405s that routes.go adds for methods a
// path does not take are not routes of their own.
func TestRoutesDocumented(t *testing.T) {
	var docs strings.Builder
	for _, f := range []string{"../../docs/api.md", "../../docs/pages.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	text := docs.String()
	// An archive that keeps players, moderates, keeps a technique index
	// and collections, so all their routes are there too.
	s := New(partsOf(struct {
		fakeTechniques
		noCollections
	}{fakeTechniques{newFakeModeration(account.RolePlayer)}, noCollections{}}), Config{Logger: quiet})
	if s.collections == nil || s.mod == nil || s.techniques == nil {
		t.Fatal("the server serves no collections, no moderation or no techniques")
	}
	routes := s.echo.Routes()
	if len(routes) < 20 {
		t.Fatalf("the route table has %d routes: is it built?", len(routes))
	}
	for _, r := range routes {
		if r.Method == http.MethodHead || strings.Contains(r.Name, "methodNotAllowed") {
			continue
		}
		p := docPath(r.Path)
		where := "docs/pages.md (the pages)"
		if strings.HasPrefix(r.Path, "/api/") {
			where = "docs/api.md (the JSON API)"
		}
		if strings.Contains(text, "`"+r.Method+" "+p) || r.Method == http.MethodGet && strings.Contains(text, "`"+p) {
			continue
		}
		t.Errorf("route %s %s (%s) is not documented: add `%s %s` to %s", r.Method, r.Path, r.Name, r.Method, p, where)
	}
}

// shellWords splits one shell command line into words: single quotes group,
// a word starting with # ends the line. Enough for the README's examples.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	in, started := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			in, started = !in, true
		case !in && r == ' ':
			if started {
				words = append(words, w.String())
			}
			w.Reset()
			started = false
		case !in && r == '#' && !started:
			return words
		default:
			w.WriteRune(r)
			started = true
		}
	}
	if in {
		t.Fatalf("unterminated quote in %q", line)
	}
	if started {
		words = append(words, w.String())
	}
	return words
}

// TestREADMEBatchExample runs the README's batch example as a shell would:
// the lines printf writes are the body curl posts, with curl's header, to
// the real router. It once posted a file the README never made, which
// imported nothing.
func TestREADMEBatchExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	end := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, batchPath) && strings.Contains(l, "curl") })
	if end < 0 {
		t.Fatalf("the README has no curl example of %s", batchPath)
	}
	start := end
	for start > 0 && strings.HasSuffix(strings.TrimSpace(lines[start-1]), "\\") || start > 0 && strings.HasSuffix(strings.TrimSpace(lines[start-1]), "|") {
		start--
	}
	command := strings.Join(lines[start:end+1], "\n")
	command = strings.ReplaceAll(command, "\\\n", " ")
	stages := strings.Split(command, "|\n")
	if len(stages) != 2 {
		t.Fatalf("want printf ... | curl ..., got:\n%s", command)
	}
	printf := shellWords(t, strings.TrimSpace(stages[0]))
	if len(printf) < 3 || printf[0] != "printf" || printf[1] != `%s\n` {
		t.Fatalf(`want printf '%%s\n' LINE..., got %q`, printf)
	}
	body := strings.Join(printf[2:], "\n") + "\n"
	curl := shellWords(t, strings.TrimSpace(stages[1]))
	r := request{method: http.MethodPost, path: batchPath, body: body, header: http.Header{}}
	for i := 0; i < len(curl)-1; i++ {
		switch curl[i] {
		case "-H":
			k, v, _ := strings.Cut(curl[i+1], ":")
			if k == "Content-Type" {
				r.contentType = strings.TrimSpace(v)
			} else {
				r.header.Set(k, strings.TrimSpace(v))
			}
		case "--data-binary":
			if curl[i+1] != "@-" {
				t.Fatalf("curl posts %s, not what printf writes", curl[i+1])
			}
		}
	}
	if !slices.Contains(curl, "$H"+batchPath) {
		t.Fatalf("curl does not post to $H%s: %q", batchPath, curl)
	}
	a := &bulkFake{fakeArchive: &fakeArchive{}}
	s := New(partsOf(a), Config{Logger: quiet})
	rec := do(t, s, r)
	if rec.Code != http.StatusOK {
		t.Fatalf("the README's batch example: %d %s", rec.Code, rec.Body)
	}
	got := decode[batchResult](t, rec)
	if got.Imported == 0 || got.Rejected != 0 {
		t.Errorf("the README's batch example imports %d and rejects %d: %s", got.Imported, got.Rejected, rec.Body)
	}
}
