package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPrereqs runs .ci/prereqs, the check behind make test, on a PATH that
// holds Go and nothing else (and no PostgreSQL under PG_LIB), as on a fresh
// machine with only Go: it must name the three missing prerequisites in one
// line each, with the command that installs them, and tell make test to run
// without -race, the browser and PostgreSQL; with CI=true it must fail.
func TestPrereqs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		t.Skipf("no go binary in GOROOT: %v", err)
	}
	bin := t.TempDir()
	if err := os.Symlink(goBin, filepath.Join(bin, "go")); err != nil {
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
	env = append(env, "PATH="+bin, "PG_LIB="+t.TempDir())

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
	if got, want := strings.TrimSpace(stdout), "RACE= SUDOKU_BROWSER=none SUDOKU_PG_BIN=none"; got != want {
		t.Errorf("settings %q, want %q", got, want)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 3 ||
		!strings.Contains(lines[0], "without -race") || !strings.Contains(lines[0], "apt-get install -y gcc") ||
		!strings.Contains(lines[1], "skipping the browser tests") || !strings.Contains(lines[1], "apt-get install -y chromium") ||
		!strings.Contains(lines[2], "skipping the PostgreSQL store tests") || !strings.Contains(lines[2], "apt-get install -y postgresql") {
		t.Errorf("want one line each on the race detector, the browser tests and PostgreSQL, got:\n%s", stderr)
	}

	if _, stderr, err := run("CI=true"); err == nil || !strings.Contains(stderr, "CI=true") {
		t.Errorf("with CI=true: err %v, stderr:\n%s\nwant a failure that says why", err, stderr)
	}
}
