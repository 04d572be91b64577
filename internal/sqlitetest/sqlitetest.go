// Package sqlitetest gives tests new SQLite archives cheaply: each a copy
// of one database file migrated once per test process, as pgtest.NewDBFrom
// does for PostgreSQL. Migrating an empty SQLite archive takes about
// 0.1 s, but 1-3 s under the race detector (modernc.org/sqlite is C
// compiled to Go, every memory access instrumented), and most tests only
// need an empty archive; the store's own tests that open an empty file
// cover the migrations.
package sqlitetest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A template is one migrated database's files, by the suffix after the
// database's name ("" the database, "-wal" its log), kept in memory.
type template struct {
	once  sync.Once
	files map[string][]byte
	err   error
}

var (
	mu        sync.Mutex
	templates = map[string]*template{}
)

// NewFileFrom returns the path of a new database file, sudoku.db in a
// temporary directory of tb, written by WriteFrom.
func NewFileFrom(tb testing.TB, name string, create func(path string) error) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "sudoku.db")
	WriteFrom(tb, name, path, create)
	return path
}

// WriteFrom writes at path (a file that is not there yet) a copy of the
// database create made, the first time this process asked for name, at a
// path of a temporary directory of its own (removed once its files are
// read). The copy is written owner-only (0600), as the store writes its
// files.
func WriteFrom(tb testing.TB, name, path string, create func(path string) error) {
	tb.Helper()
	mu.Lock()
	t := templates[name]
	if t == nil {
		t = new(template)
		templates[name] = t
	}
	mu.Unlock()
	t.once.Do(func() { t.files, t.err = build(create) })
	if t.err != nil {
		tb.Fatalf("sqlitetest: the %s template: %v", name, t.err)
	}
	for suffix, b := range t.files {
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
}

// build runs create in a temporary directory and reads the database's files
// it leaves (the shared-memory index, -shm, is rebuilt by the next open).
func build(create func(path string) error) (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sudoku.db")
	if err := create(path); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range ents {
		suffix, ok := strings.CutPrefix(e.Name(), "sudoku.db")
		if !ok || suffix == "-shm" {
			continue
		}
		if files[suffix], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
			return nil, err
		}
	}
	return files, nil
}
