package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// A mistyped --db used to become a new, empty archive without a word:
// `export` printed nothing and `serve` showed an empty site. Commands that
// only read an archive now refuse one that does not exist (openExisting);
// commands that write (serve, import, generate --archive) still create it,
// and say so in one line on stderr (openOrCreate). The administration
// commands (user, attempts import) write too, but a typo there once put an
// admin into a stray file: they create an archive only with --create.

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
	if err := requireArchive(cmd, path, ""); err != nil {
		return nil, err
	}
	db, err := openArchive(ctx, e, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return db, nil
}

// requireArchive refuses, for a command that needs an archive that is
// already there, an SQLite path where no file is: the error names the
// command and the flag that would create one ("" for none).
func requireArchive(cmd, path, create string) error {
	if !missingArchive(path) {
		return nil
	}
	if create != "" {
		return fmt.Errorf("%s: no archive at %s: check --db or SUDOKU_DB (%s creates one)", cmd, path, create)
	}
	return fmt.Errorf("%s: no archive at %s: check --db or SUDOKU_DB (%s does not create one)", cmd, path, cmd)
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

// dbRetryMax bounds the pause between two tries of openWaiting.
const dbRetryMax = 10 * time.Second

// openWaiting is openOrCreate for `sudoku serve`: while the database
// cannot be reached (a PostgreSQL server still starting, or restarting),
// it says so and tries again, the pause doubling from a second up to
// dbRetryMax, for up to wait in all (serve --db-wait); then it gives up
// with the last error. A server used to exit at once, so that servers
// started with their database (a reboot) failed until restarted by hand.
func openWaiting(ctx context.Context, e *env, path string, wait time.Duration, log *slog.Logger) (*store.DB, error) {
	start := time.Now()
	pause := time.Second
	for {
		db, err := openOrCreate(ctx, e, path)
		if err == nil || !store.IsUnavailable(err) || ctx.Err() != nil {
			return db, err
		}
		left := wait - time.Since(start)
		if left <= 0 {
			return nil, fmt.Errorf("gave up waiting %s for the database (serve --db-wait): %w", wait, err)
		}
		pause = min(pause, left)
		e.startPhase(fmt.Sprintf("waiting for the database, unavailable since %s (serve --db-wait %s)", start.UTC().Format(time.RFC3339), wait))
		log.Warn("database unavailable: waiting for it", slog.String("db", store.Redact(path)),
			slog.Duration("retry_in", pause), slog.Duration("gives_up_in", left), slog.Any("err", err))
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
		pause = min(2*pause, dbRetryMax)
	}
}
