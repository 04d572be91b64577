package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeEnvErrors: a variable's value that serve refuses is a usage
// error that names the variable the operator wrote (never the flag alone)
// and says why (never only "parse error").
func TestServeEnvErrors(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"SUDOKU_GRADERS", "many", "use a whole number"},
		{"SUDOKU_DAILY", "maybe", "use true or false"},
		{"SUDOKU_DB_WAIT", "soon", "use a duration"},
		{"SUDOKU_RATE_LIMIT", "NaN", "SUDOKU_RATE_LIMIT"},
		{"SUDOKU_LOG_FORMAT", "xml", "use text or json"},
		{"SUDOKU_TRUSTED_PROXY", "10.0.0.1", "CIDR"},
	} {
		e := &env{getenv: func(k string) string {
			if k == tc.name {
				return tc.value
			}
			return ""
		}, stderr: &bytes.Buffer{}}
		_, err := parseServeFlags(e, nil)
		var u errUsage
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if !errors.As(err, &u) || !strings.Contains(msg, tc.name) || !strings.Contains(msg, tc.want) ||
			strings.Contains(msg, "parse error") || strings.Contains(msg, "--") {
			t.Errorf("%s=%s: %q, want a usage error naming %s and saying %q", tc.name, tc.value, msg, tc.name, tc.want)
		}
	}
}

// TestUnknownEnvWarned: `sudoku serve` warns of each SUDOKU_ variable no
// flag reads, naming the closest flag's variable; the tests' own variables
// and every flag's are left alone.
func TestUnknownEnvWarned(t *testing.T) {
	logs := &logBuffer{addr: make(chan string, 1)}
	environ := []string{"SUDOKU_GRADER=2", "SUDOKU_SINGUPS=false", "SUDOKU_PG_BIN=/usr/lib", "SUDOKU_LICENCE=CC0", "PATH=/bin"}
	e := &env{getenv: func(string) string { return "" }, environ: func() []string { return environ },
		stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: logs}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- dispatch(ctx, e, []string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "sudoku.db"), "--daily=false", "--graders", "0"})
	}()
	select {
	case <-logs.addr:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen:\n%s", logs)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{
		"SUDOKU_GRADER is not read by serve: did you mean SUDOKU_GRADERS (--graders)?",
		"SUDOKU_SINGUPS is not read by serve: did you mean SUDOKU_SIGNUPS (--signups)?",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no warning %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SUDOKU_PG_BIN") || strings.Contains(out, "SUDOKU_LICENCE is not") {
		t.Errorf("warned of a variable that is read:\n%s", out)
	}
}
