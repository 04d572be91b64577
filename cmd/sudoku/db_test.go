package main

import (
	"path/filepath"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// eachDatabase runs fn on a new SQLite file and on a new PostgreSQL
// database (on the package's shared throwaway cluster; the subtest skips
// when pgtest cannot start one), so a command's behaviour is checked on
// both.
func eachDatabase(t *testing.T, fn func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, filepath.Join(t.TempDir(), "sudoku.db")) })
	t.Run("postgres", func(t *testing.T) { fn(t, pgtest.NewDB(t)) })
}
