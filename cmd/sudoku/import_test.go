package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runEnv is runCmd with an environment.
func runEnv(t *testing.T, env map[string]string, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

var summaryRE = regexp.MustCompile(`^imported (\d+), duplicates (\d+), rejected (\d+) in \d+\.\d\ds\n$`)

func summary(t *testing.T, out string) string {
	t.Helper()
	m := summaryRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("stdout %q is not the summary line", out)
	}
	return strings.Join(m[1:], " ")
}

func TestImportCommand(t *testing.T) { eachDatabase(t, testImportCommand) }

func testImportCommand(t *testing.T, db string) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.txt")
	in := "# a collection\n\n" + easy + "\n" + strings.ReplaceAll(easy, ".", "0") + " 7.2\nnot a puzzle\n" +
		"55" + easy[2:] + "\n"
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}

	out, errOut, err := runCmd(t, "", "import", "--db", db, file)
	if err != nil {
		t.Fatalf("import: %v (stderr %q)", err, errOut)
	}
	if got := summary(t, out); got != "1 1 2" {
		t.Errorf("imported, duplicates, rejected = %s, want 1 1 2", got)
	}
	wantErr := file + ":5: 'n' at position 1 is not a cell"
	if !strings.Contains(errOut, wantErr) || !strings.Contains(errOut, file+":6: row 1 has two 5s") {
		t.Errorf("stderr %q, want line 5 and line 6 reported", errOut)
	}
	// A new SQLite file is announced in a line of its own; piped, one
	// line says the grading is done (issue 34), and no bar is drawn.
	if !regexp.MustCompile(`(?m)^graded 1 puzzle \(the human-style grade\) in \d+\.\d\ds$`).MatchString(errOut) {
		t.Errorf("stderr says nothing of the grading:\n%s", errOut)
	}
	if n := strings.Count(strings.TrimPrefix(errOut, "created a new archive at "+db+"\n"), "\n"); n != 3 {
		t.Errorf("stderr has %d lines, want 3 (no progress bar when not a terminal):\n%s", n, errOut)
	}

	// The same again from stdin, with the database from the environment:
	// everything is a duplicate now.
	out, _, err = runEnv(t, map[string]string{"SUDOKU_DB": db}, in, "import", "-")
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(t, out); got != "0 2 2" {
		t.Errorf("second import: imported, duplicates, rejected = %s, want 0 2 2", got)
	}

	out, _, err = runCmd(t, "", "export", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(easy+"\n", out); diff != "" {
		t.Errorf("export (-want +got):\n%s", diff)
	}
}

func TestImportCommandErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"import", "--db", db}, "no FILE given"},
		{"missing file", []string{"import", "--db", db, filepath.Join(dir, "nope.txt")}, "no such file"},
		{"unknown flag", []string{"import", "--nope", "-"}, "flag provided but not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCmd(t, "", tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A missing file stops the import before anything is archived.
	f := filepath.Join(dir, "good.txt")
	os.WriteFile(f, []byte(easy+"\n"), 0o644)
	if _, _, err := runCmd(t, "", "import", "--db", db, f, filepath.Join(dir, "nope.txt")); err == nil {
		t.Fatal("import with a missing file succeeded")
	}
	out, _, _ := runCmd(t, "", "export", "--db", db)
	if out != "" {
		t.Errorf("archive after a failed start holds %q, want nothing", out)
	}
}

// interrupter is a stdin that presses Ctrl-C as the import starts reading.
type interrupter struct {
	cancel context.CancelFunc
	r      *strings.Reader
}

func (i interrupter) Read(p []byte) (int, error) {
	i.cancel()
	return i.r.Read(p)
}

func TestImportCommandInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	db := sqliteArchive(t)
	err := run(ctx, []string{"import", "--db", db, "-"}, func(string) string { return "" },
		interrupter{cancel, strings.NewReader(easy + "\n")}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || exitCode(err) != 1 {
		t.Errorf("err = %v, want an interruption with exit status 1", err)
	}
	if got := summary(t, out.String()); got != "0 0 0" {
		t.Errorf("summary %s, want nothing counted", got)
	}
}
