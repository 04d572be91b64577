package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestOldArchiveMadePrivate: an archive an older binary left readable by
// others (0644, with its -wal and -shm) is its owner's alone (0600) once
// a command of this binary opens it, and the command says so; a second
// open says nothing more.
func TestOldArchiveMadePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sudoku.db")
	if _, _, err := runCmd(t, easy+"\n", "import", "--db", path, "-"); err != nil {
		t.Fatal(err)
	}
	// Held open, so that the -wal and -shm exist as a running old server's do.
	held, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	files := []string{path, path + "-wal", path + "-shm"}
	for _, f := range files {
		if err := os.Chmod(f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, err := runCmd(t, "", "export", "--db", path)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, stderr)
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(f), fi.Mode().Perm())
		}
		if !strings.Contains(stderr, f) {
			t.Errorf("the change of %s is not logged:\n%s", filepath.Base(f), stderr)
		}
	}
	if !strings.Contains(stderr, "restricted to its owner") {
		t.Errorf("no log line:\n%s", stderr)
	}
	if _, stderr, err = runCmd(t, "", "export", "--db", path); err != nil || strings.Contains(stderr, "restricted") {
		t.Errorf("a second open: %v, said %q", err, stderr)
	}
}
