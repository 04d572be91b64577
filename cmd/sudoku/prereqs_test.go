package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestPrereqs runs .ci/prereqs, the check behind make test, on a PATH that
// holds Go and nothing else (and no PostgreSQL under PG_LIB), as on a fresh
// machine with only Go: it must name the three missing prerequisites in one
// line each, with the command that installs them, and tell make test to run
// without -race, the browser and PostgreSQL; with CI=true it must fail.
// The tests it names as skipped as root must exist (TestPrereqsNamesExist).
func TestPrereqs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script")
	}
	// go test puts its own GOROOT/bin first on the PATH of the tests.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go binary on PATH: %v", err)
	}
	bin := t.TempDir()
	if err := os.Symlink(goBin, filepath.Join(bin, "go")); err != nil {
		t.Fatal(err)
	}
	// id tells the script whether it runs as root.
	id, err := exec.LookPath("id")
	if err != nil {
		t.Fatalf("no id command: %v", err)
	}
	if err := os.Symlink(id, filepath.Join(bin, "id")); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "PATH", "CI", "CC", "CGO_ENABLED", "GO":
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin, "PG_LIB="+t.TempDir(), "SUDOKU_AXE_DIR="+t.TempDir())

	run := func(extra ...string) (stdout, stderr string, err error) {
		cmd := exec.Command("../../.ci/prereqs")
		cmd.Env = append(env, extra...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		return o.String(), e.String(), err
	}

	stdout, stderr, err := run()
	if err != nil {
		t.Fatalf("prereqs: %v\n%s", err, stderr)
	}
	if got, want := strings.TrimSpace(stdout), "RACE= SUDOKU_BROWSER=none SUDOKU_PG_BIN=none SUDOKU_AXE=none"; got != want {
		t.Errorf("settings %q, want %q", got, want)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	root := os.Geteuid() == 0
	if root {
		if n := len(lines); n == 0 || !strings.Contains(lines[n-1], "running as root, skipping TestOpenReadOnly") {
			t.Errorf("as root, the last line must name the test skipped as root, got:\n%s", stderr)
		} else {
			lines = lines[:n-1]
		}
	}
	checkPrereqLines(t, lines, stderr)

	// With a C compiler, the race detector is on and nothing is said of it
	// (the tests its pass skips run in make test's second pass).
	stdout, stderr, err = run("CGO_ENABLED=1")
	if err != nil {
		t.Fatalf("prereqs with cgo: %v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, "RACE=-race ") || strings.Contains(stderr, "race") {
		t.Errorf("with cgo: settings %q, stderr:\n%s\nwant RACE=-race and no word on it", stdout, stderr)
	}

	if _, stderr, err := run("CI=true"); err == nil || !strings.Contains(stderr, "CI=true") {
		t.Errorf("with CI=true: err %v, stderr:\n%s\nwant a failure that says why", err, stderr)
	}
}

// TestPrereqsNamesExist: every test .ci/prereqs names as skipped is a test
// function of the repository, so a renamed test cannot leave the summary
// naming one that no longer exists while the real one skips silently.
func TestPrereqsNamesExist(t *testing.T) {
	script, err := os.ReadFile("../../.ci/prereqs")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`\bTest[A-Z]\w*`).FindAllString(string(script), -1)
	if len(names) < 1 {
		t.Fatalf("prereqs names %v, want the test make test skips as root", names)
	}
	var src strings.Builder
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		src.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.Contains(src.String(), "func "+n+"(t *testing.T)") {
			t.Errorf(".ci/prereqs names %s as skipped, but no test has that name", n)
		}
	}
}

// checkPrereqLines: one line each on the race detector, the browser tests,
// PostgreSQL and axe-core, each with the command that installs it.
func checkPrereqLines(t *testing.T, lines []string, stderr string) {
	t.Helper()
	want := [][2]string{{"without -race", "apt-get install -y gcc"}, {"skipping the browser tests", "apt-get install -y chromium"},
		{"skipping the PostgreSQL store tests", "apt-get install -y postgresql"}, {"accessibility checks", "npm install"}}
	if len(lines) != len(want) {
		t.Errorf("want one line each on the race detector, the browser tests, PostgreSQL and axe-core, got:\n%s", stderr)
		return
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w[0]) || !strings.Contains(lines[i], w[1]) {
			t.Errorf("line %d %q, want %q with %q", i+1, lines[i], w[0], w[1])
		}
	}
}
