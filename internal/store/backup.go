package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// An archive holds password hashes and session tokens' hashes: the files
// this package makes (a new archive, its -wal and -shm, which SQLite
// creates with the main file's permissions, and every backup) are readable
// by their owner only.
const fileMode fs.FileMode = 0o600

// createFile makes path, empty, readable by its owner only (fileMode). It
// fails if anything is there already: an archive or a backup is never
// written over.
func createFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	return f.Close()
}

// removeNew removes a file createFile made and what SQLite made beside it,
// after a failed open: a typo must not leave a file behind.
func removeNew(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		_ = os.Remove(p)
	}
}

// Backup writes a consistent copy of the live archive to dest, a new file,
// with VACUUM INTO. Submissions go on meanwhile; the copy holds every puzzle
// committed when the backup began. A PostgreSQL archive is backed up by
// PostgreSQL's own tools (pg_dump): Backup refuses it.
func (db *DB) Backup(ctx context.Context, dest string) error {
	if db.isClosed() {
		return ErrClosed
	}
	if db.d.postgres {
		return fmt.Errorf("backup: %s is a PostgreSQL database: back it up with pg_dump (pg_dump -Fc -f FILE URL), not sudoku backup", db.path)
	}
	return vacuumInto(ctx, db.reader, dest)
}

// vacuumInto copies the database src reads into dest, a new file made
// readable by its owner only. VACUUM INTO takes an empty file, so dest is
// made first, atomically refusing one that exists; a failed copy removes
// it.
func vacuumInto(ctx context.Context, src *sql.DB, dest string) error {
	if err := createFile(dest); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("backup to %s: file exists (choose a new name)", dest)
	} else if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		removeNew(dest)
		return fmt.Errorf("backup to %s: %w", dest, describe(err))
	}
	return nil
}

// BackupFile writes a consistent copy of the SQLite archive at src to
// dest, as Backup does, without opening src for writing: no migration, no
// writer, so it also rescues an archive on a read-only file, directory or
// mount (a disk the kernel turned read-only). It reads src as a live
// database first, so a server may go on writing to it; where SQLite cannot
// (no -shm file and no right to make one) and no -wal file holds commits,
// the file cannot change under it, and it reads the file as immutable.
func BackupFile(ctx context.Context, src, dest string) error {
	if fi, err := os.Stat(src); err != nil {
		return fmt.Errorf("backup: %w", err)
	} else if fi.IsDir() {
		return fmt.Errorf("backup: %s is a directory, not a database file", src)
	}
	name := "file:" + (&url.URL{Path: src}).EscapedPath() + "?mode=ro&_pragma=busy_timeout(" + busyTimeout + ")"
	err := backupFrom(ctx, name, src, dest)
	if err == nil || sqliteCode(err) == 0 || !walEmpty(src) {
		return err
	}
	return backupFrom(ctx, name+"&immutable=1", src, dest)
}

// backupFrom copies the database src at the DSN name into dest.
func backupFrom(ctx context.Context, name, src, dest string) error {
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// The first read shows whether SQLite can read the file as it is.
	if _, err := db.ExecContext(ctx, "SELECT count(*) FROM sqlite_schema"); err != nil {
		return fmt.Errorf("backup: read %s: %w", src, describe(err))
	}
	return vacuumInto(ctx, db, dest)
}

// walEmpty reports whether the archive at path has no -wal file with
// commits in it (a clean stop removes it).
func walEmpty(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return errors.Is(err, fs.ErrNotExist) || err == nil && fi.Size() == 0
}

// createArchiveFile makes a new archive's file at path: an SQLite database
// with no tables yet, readable by its owner only, which the caller then
// migrates. The file is made under another name in the same directory and
// linked into place only once SQLite has written its header, so a process
// killed while it makes one leaves either no file at path or a database
// (never the empty file that prepareFile refuses). made is false when
// another process put a file at path first: the caller opens that one.
func createArchiveFile(path string) (made bool, err error) {
	removeStaleNew(path)
	tmp := fmt.Sprintf("%s.new-%d-%d", path, os.Getpid(), time.Now().UnixNano())
	if err := createFile(tmp); err != nil {
		return false, err
	}
	defer removeNew(tmp)
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: tmp}).EscapedPath())
	if err != nil {
		return false, err
	}
	// Switching to WAL is a write: it gives the empty file its header.
	_, err = db.Exec("PRAGMA journal_mode=WAL")
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, describe(err)
	}
	if err := os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// removeStaleNew removes what createArchiveFile left beside path when its
// process was killed: files named path.new-* older than a minute (a younger
// one may be another process's, at work).
func removeStaleNew(path string) {
	old, _ := filepath.Glob(globEscape(path) + ".new-*")
	for _, p := range old {
		if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) > time.Minute {
			_ = os.Remove(p)
		}
	}
}

// globEscape escapes the characters filepath.Match treats as patterns.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prepareFile checks the path of an SQLite archive before SQLite opens it,
// and makes a new archive's file (readable by its owner only) where none
// is; fresh says it did.
func prepareFile(path string) (fresh bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		made, err := createArchiveFile(path)
		if err != nil {
			return false, fmt.Errorf("cannot open or create the file (check that its directory exists and is writable): %w", err)
		}
		return made, nil
	case err == nil && fi.IsDir():
		return false, errors.New("is a directory, not a database file")
	case err == nil && fi.Size() == 0:
		// SQLite would take an empty file for an empty database and
		// make it an archive: whatever the file was meant for, it was
		// not that. A new archive is made where no file is.
		return false, errors.New("is an empty file (0 bytes), not an SQLite database: remove it, or name another file")
	}
	return false, nil
}
