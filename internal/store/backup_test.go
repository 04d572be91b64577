package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// TestNewArchiveNeverEmpty: a new archive's file appears at its path only
// once SQLite has written its header, so a process killed while it makes
// one never leaves the empty file every later open refuses; what a killed
// maker left beside it is cleared by the next one, and a file that another
// process put in place first is opened, not written over.
func TestNewArchiveNeverEmpty(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new[1].db") // a name with a glob character
	stale := path + ".new-1-1"
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	young := path + ".new-2-2" // another maker's, at work: kept
	if err := os.WriteFile(young, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	made, err := createArchiveFile(path)
	if err != nil || !made {
		t.Fatalf("createArchiveFile: made %v, %v", made, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new archive file: %v, %v", fi, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 2 || left[0] != path || left[1] != young {
		t.Errorf("files after the make: %q, want only %q and %q", left, path, young)
	}
	if made, err := createArchiveFile(path); err != nil || made {
		t.Errorf("a second make over the first: made %v, %v; want the first kept", made, err)
	}
	db := MustOpenDBAt(t, path)
	if _, _, err := db.Submit(context.Background(), synthetic(1, 1, 1000, 1)); err != nil {
		t.Fatal(err)
	}
}
