package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFilesOwnerOnly: a new archive, its -wal and -shm, and a backup hold
// password hashes: they are made readable by their owner only, whatever
// the umask.
func TestFilesOwnerOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "sudoku.db")
	db := MustOpenDBAt(t, path)
	if _, _, err := db.Submit(ctx, synthetic(1, 1, 1000, 1)); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "copy.db")
	if err := db.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	if err := BackupFile(ctx, path, other); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", dest, other} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := fi.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), m)
		}
	}
}

// TestFailedOpenLeavesNoFile: a new archive that cannot be opened (here:
// a name SQLite refuses to treat as a plain file) is removed again.
func TestFailedOpenLeavesNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fresh.db")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the open fails after the file is made
	if db, err := Open(ctx, path); err == nil {
		db.Close()
		t.Skip("opened under a cancelled context")
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s left behind by a failed open", path)
	}
}
