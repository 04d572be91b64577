package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// runBackup is `sudoku backup`: it writes a consistent copy of the archive
// to a new file (readable by its owner only) with VACUUM INTO, while `sudoku serve` may go on taking
// submissions. The copy holds every puzzle committed when the backup began
// and is itself a complete database: serve it with `sudoku serve --db OUT`.
func runBackup(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "backup", "[--db FILE] OUT")
	dbPath := existingDBFlag(fs, e, "the SQLite archive to copy, which must exist; only read (never created or migrated), so a read-only file or mount will do")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errUsage{"backup takes one argument: the file to write, which must not exist yet"}
	}
	out := fs.Arg(0)
	if store.IsPostgres(*dbPath) {
		return fmt.Errorf("backup: %s is a PostgreSQL database: back it up with pg_dump (pg_dump -Fc -f FILE URL)", store.Redact(*dbPath))
	}
	// Opening a missing file would create an empty archive and back that up.
	if missingArchive(*dbPath) {
		return fmt.Errorf("backup: no archive at %s: check --db or SUDOKU_DB (backup does not create one)", *dbPath)
	}
	// The archive is only read: opened read-only, never migrated, so a
	// file, directory or mount gone read-only can still be rescued.
	start := time.Now()
	if err := store.BackupFile(ctx, *dbPath, out); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes) in %.2fs\n", *dbPath, out, fi.Size(), time.Since(start).Seconds())
	return nil
}
