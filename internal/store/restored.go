package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/pressly/goose/v3"
)

// ErrRestoredOver is matched (errors.Is) by the error Open returns, before
// it migrates anything, for a database that already holds tables its
// pending migrations make: a backup restored over a database of a newer
// schema with `pg_restore --clean`, which drops and remakes only what the
// dump holds (issue 50, item 1). Migrating it failed half-way, at a schema
// neither binary would start on.
var ErrRestoredOver = errors.New("database restored over a newer schema")

// createdTable and droppedTable find the tables a migration's Up section
// makes and drops.
var (
	createdTable = regexp.MustCompile(`(?i)\bCREATE TABLE\s+(\w+)`)
	droppedTable = regexp.MustCompile(`(?i)\bDROP TABLE\s+(?:IF EXISTS\s+)?(\w+)`)
)

// leftovers returns the tables that the migrations after current up to
// known make and that the database already has, each with the migration
// that makes it.
func (db *DB) leftovers(ctx context.Context, p *goose.Provider, current, known int64) ([]string, error) {
	made := map[string]int64{}
	dropped := map[string]bool{}
	for _, src := range p.ListSources() {
		if src.Version <= current || src.Version > known {
			continue
		}
		b, err := fs.ReadFile(db.d.fs, src.Path)
		if err != nil {
			return nil, err
		}
		up, _, _ := strings.Cut(string(b), "-- +goose Down")
		for _, m := range droppedTable.FindAllStringSubmatch(up, -1) {
			dropped[strings.ToLower(m[1])] = true
		}
		for _, m := range createdTable.FindAllStringSubmatch(up, -1) {
			if name := strings.ToLower(m[1]); !dropped[name] && made[name] == 0 {
				made[name] = src.Version
			}
		}
	}
	q := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if db.d.postgres {
		q = "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1"
	}
	var found []string
	for name, v := range made {
		if dropped[name] {
			continue
		}
		var n int
		if err := db.writer.QueryRowContext(ctx, q, name).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			found = append(found, fmt.Sprintf("%s (made by migration %05d)", name, v))
		}
	}
	slices.Sort(found)
	return found, nil
}

// restoredOverError is the refusal of a database with leftovers.
func restoredOverError(current int64, found []string) error {
	return fmt.Errorf("%w: the database is at schema %d but already has the tables %s, which a newer schema made: "+
		"it was restored over a migrated database (pg_restore --clean keeps what the dump does not hold). "+
		"Restore the backup into a new database instead (docs/operations.md, Rollback); nothing was changed",
		ErrRestoredOver, current, strings.Join(found, ", "))
}
