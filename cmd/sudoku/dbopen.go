package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// A mistyped --db used to become a new, empty archive without a word:
// `export` printed nothing and `serve` showed an empty site. Commands that
// only read an archive now refuse one that does not exist (openExisting);
// commands that write (serve, import, generate --archive) still create it,
// and say so in one line on stderr (openOrCreate).

// missingArchive reports, for an SQLite path, that no file is there.
func missingArchive(path string) bool {
	if store.IsPostgres(path) {
		return false // the database must exist; the server says so
	}
	_, err := os.Stat(path)
	return errors.Is(err, os.ErrNotExist)
}

// openExisting opens the archive at path for a command that only reads
// it: a file that does not exist is an error (exit 1), never a new archive.
func openExisting(ctx context.Context, e *env, cmd, path string) (*store.DB, error) {
	if missingArchive(path) {
		return nil, fmt.Errorf("%s: no archive at %s: check --db or SUDOKU_DB (%s does not create one)", cmd, path, cmd)
	}
	db, err := openArchive(ctx, e, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return db, nil
}

// openOrCreate opens the archive at path for a command that writes to it,
// creating it when it does not exist, and then saying so on stderr.
func openOrCreate(ctx context.Context, e *env, path string) (*store.DB, error) {
	fresh := missingArchive(path)
	db, err := openArchive(ctx, e, path)
	if err == nil && fresh {
		e.say(fmt.Sprintf("created a new archive at %s", path), "created a new archive", slog.String("db", store.Redact(path)))
	}
	return db, err
}
