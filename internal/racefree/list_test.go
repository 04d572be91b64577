package racefree

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// write puts each file of files (path: source) under a new directory.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const header = `package p

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)
`

// TestList finds the tests that call Only as their own statement, under an
// import alias too, and leaves out testdata, non-test files and tests that
// do not call it.
func TestList(t *testing.T) {
	root := write(t, map[string]string{
		"a/a_test.go": header + `
func TestWalk(t *testing.T) { racefree.Only(t); t.Log("walk") }
func TestOther(t *testing.T) { t.Log("under -race too") }
func TestB(t *testing.T) {
	t.Log("first")
	racefree.Only(t)
}
`,
		"b/b_test.go": `package q

import (
	"testing"

	rf "github.com/sudoku-archive/sudoku/internal/racefree"
)

func TestAliased(t *testing.T) { rf.Only(t) }
func TestWalk(t *testing.T) { rf.Only(t) }
`,
		"a/testdata/x_test.go": header + `func TestIgnored(t *testing.T) { racefree.Only(t) }`,
		"a/plain.go":           header + `func TestNotATestFile(t *testing.T) { racefree.Only(t) }`,
	})
	names, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(names, " "), "TestAliased TestB TestWalk"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	re := regexp.MustCompile(Pattern(names))
	for name, want := range map[string]bool{"TestWalk": true, "TestB": true, "TestWalker": false, "TestOther": false, "XTestB": false} {
		if re.MatchString(name) != want {
			t.Errorf("pattern %s matches %s: %v, want %v", re, name, !want, want)
		}
	}
	if p := Pattern(nil); regexp.MustCompile(p).MatchString("TestWalk") {
		t.Errorf("empty pattern %q selects a test", p)
	}
}

// TestListRefusesHiddenCalls: a call of Only in a helper, a subtest or a
// benchmark is an error naming its place, since its test would run nowhere.
func TestListRefusesHiddenCalls(t *testing.T) {
	for name, body := range map[string]string{
		"helper":    `func helper(t *testing.T) { racefree.Only(t) }`,
		"subtest":   `func TestS(t *testing.T) { t.Run("x", func(t *testing.T) { racefree.Only(t) }) }`,
		"benchmark": `func BenchmarkB(b *testing.B) { racefree.Only(b) }`,
		"nested":    `func TestN(t *testing.T) { if true { racefree.Only(t) } }`,
		"lowercase": `func Testlower(t *testing.T) { racefree.Only(t) }`,
	} {
		t.Run(name, func(t *testing.T) {
			root := write(t, map[string]string{"x_test.go": header + body})
			_, err := List(root)
			if err == nil || !strings.Contains(err.Error(), "x_test.go:") || !strings.Contains(err.Error(), "outside") {
				t.Errorf("err %v, want one naming x_test.go and why", err)
			}
		})
	}
}

// TestListRepository: the repository's own tests list cleanly, and the
// slow walks that make test's second pass exists for are among them.
func TestListRepository(t *testing.T) {
	names, err := List("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TestBrowser", "TestSQLiteWalks", "TestPostgresWalks"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("%s not listed for the pass without -race: %v", want, names)
		}
	}
}
