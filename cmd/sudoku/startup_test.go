package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestServeRefusesBadDatabase runs the real binary on database files it
// must not serve: it must print exactly one line on stderr that says what is
// wrong, exit non-zero, and leave the file as it was.
func TestServeRefusesBadDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	// Readable by the unprivileged user the read-only cases run as.
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin)), dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	archive := func(sub string) string { return emptyArchive(t, dir, sub) }

	future := archive("future")
	raw := openRaw(t, future)
	if _, err := raw.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES ((SELECT max(version_id) + 5 FROM goose_db_version), 1)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	// Read-only cases need a user that permissions bind: root ignores them,
	// so as root they run through setpriv as nobody.
	var asNobody []string
	if os.Geteuid() == 0 {
		if p, err := exec.LookPath("setpriv"); err == nil {
			asNobody = []string{p, "--reuid=65534", "--regid=65534", "--clear-groups"}
		}
	}
	canDropPrivileges := os.Geteuid() != 0 || asNobody != nil
	roDir := archive("ro-dir") // root-owned 0755 directory: nobody cannot create the -wal file
	os.Chmod(roDir, 0o644)     // archives are made 0600: this one is readable, not writable, by nobody
	if os.Geteuid() != 0 {
		os.Chmod(filepath.Dir(roDir), 0o555)
		t.Cleanup(func() { os.Chmod(filepath.Dir(roDir), 0o755) })
	}
	roFile := archive("ro-file") // writable directory, read-only file
	os.Chmod(filepath.Dir(roFile), 0o777)
	os.Chmod(roFile, 0o444)

	for _, tc := range []struct {
		name, db, want string
		readOnly       bool
	}{
		{"text file", write("notes.txt", strings.Repeat("not a database\n", 200)), "not an SQLite database", false},
		{"truncated header", write("half.db", "SQLite format 3\x00\x10\x00"), "not an SQLite database", false},
		{"newer schema", future, "is newer than this binary knows", false},
		{"directory", dir, "is a directory", false},
		{"missing directory", filepath.Join(dir, "nowhere", "sudoku.db"), "cannot open or create the file", false},
		{"read-only directory", roDir, "database is read-only", true},
		{"read-only file", roFile, "database is read-only", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.readOnly && !canDropPrivileges {
				t.Skip("running as root without setpriv: permissions are not enforced")
			}
			var prefix []string
			if tc.readOnly {
				prefix = asNobody
			}
			checkServeRefuses(t, prefix, bin, tc.db, tc.want)
		})
	}
}

// emptyArchive creates a new, empty archive in the new directory dir/sub
// and returns its path.
func emptyArchive(t *testing.T, dir, sub string) string {
	t.Helper()
	d := filepath.Join(dir, sub)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(d, "sudoku.db")
	db, err := store.Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkServeRefuses runs `bin serve` on db, after the command prefix (to
// run it as another user) if any: it must exit 1 with one line on stderr
// that contains want (after the log's "starting" line with the settings),
// and leave the file as it was.
func checkServeRefuses(t *testing.T, prefix []string, bin, db, want string) {
	t.Helper()
	before, _ := os.ReadFile(db)
	args := append(slices.Clip(prefix), bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; stderr:\n%s", err, stderr.String())
	}
	lines := slices.DeleteFunc(strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n"),
		func(l string) bool { return strings.Contains(l, " msg=starting ") })
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "sudoku: ") || !strings.Contains(lines[0], want) {
		t.Errorf("stderr %q: want one line 'sudoku: …%s…'", stderr.String(), want)
	}
	t.Log(lines[0])
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("the file was changed")
	}
}
