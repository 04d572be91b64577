package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// eachDatabase runs fn on a new SQLite file and on a new PostgreSQL
// database (on the package's shared throwaway cluster; the subtest skips
// when pgtest cannot start one), so a command's behaviour is checked on
// both. Neither is an archive yet: the first command that opens one
// creates and migrates it, as for a user's first run. A test that is not
// about that first run takes eachArchive.
//
// The two run at once: they share nothing but the package's PostgreSQL
// cluster and the binaries built once, and a command's test on one
// database waits on its own server or store most of the time.
func eachDatabase(t *testing.T, fn func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, filepath.Join(t.TempDir(), "sudoku.db")) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, pgtest.NewDB(t)) })
}

// eachArchive is eachDatabase over archives already there, migrated and
// empty: a copy of one that store.Open migrated once per test process
// (sqlitetest, pgtest.NewDBFrom). Migrating an empty archive costs a test
// 1-3 s under -race on each database; what a command does on a missing
// archive (creates it and says so, or refuses it) is tested with
// eachDatabase and in probe_test.go, and the migrations in internal/store.
func eachArchive(t *testing.T, fn func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, sqliteArchive(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, pgtest.NewDBFrom(t, "archive", openClose)) })
}

// sqliteArchive returns the path of a new SQLite archive, sudoku.db in a
// temporary directory of t: migrated and empty, a copy (see eachArchive).
func sqliteArchive(t testing.TB) string {
	t.Helper()
	return sqlitetest.NewFileFrom(t, "archive", openClose)
}

// openClose makes an archive at dsn, migrated and empty.
func openClose(dsn string) error {
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		return err
	}
	return db.Close()
}

// sqliteArchiveAt writes at path (no file yet) the copy sqliteArchive
// makes.
func sqliteArchiveAt(t testing.TB, path string) {
	t.Helper()
	sqlitetest.WriteFrom(t, "archive", path, openClose)
}
