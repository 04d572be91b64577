package web

import (
	"context"
	"os"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestMain hashes the tests' passwords at argon2id's cheapest costs (the
// production costs are account's TestPasswordCost) and stops the shared
// PostgreSQL cluster the tests' databases live on.
func TestMain(m *testing.M) {
	account.UseTestCost()
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// pgArchive returns the URL of a new archive on the shared PostgreSQL
// cluster, dropped when t ends: a copy of a database store.Open migrated
// once per test process (migrating an empty one costs a test a second;
// the store's tests cover the migrations).
func pgArchive(t *testing.T) string {
	t.Helper()
	return pgtest.NewDBFrom(t, "archive", openClose)
}

// sqliteArchive returns the path of a new SQLite archive in a temporary
// directory of t: a copy of a file store.Open migrated once per test
// process (sqlitetest; migrating costs a test 1-3 s under -race).
func sqliteArchive(t testing.TB) string {
	t.Helper()
	return sqlitetest.NewFileFrom(t, "archive", openClose)
}

// sqliteArchiveAt writes the copy sqliteArchive makes at path.
func sqliteArchiveAt(t testing.TB, path string) {
	t.Helper()
	sqlitetest.WriteFrom(t, "archive", path, openClose)
}

// openClose makes an archive at dsn, migrated and empty.
func openClose(dsn string) error {
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		return err
	}
	return db.Close()
}
