package main

import (
	"context"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// runExport writes every archived puzzle to stdout. The defaults (sort
// difficulty, order desc) are the API's, so --sort and --order mean the same
// everywhere; `--sort submitted --order asc` gives the archive's own order.
func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "export", "[--db sudoku.db] [--format txt|csv|json] [--sort FIELD] [--order asc|desc]")
	dbPath := dbFlag(fs, e)
	format := fs.String("format", string(bulk.TXT), "txt (one puzzle per line), csv (header row, every field) or json (one object per line)")
	sortBy := fs.String("sort", string(sudoku.SortDifficulty), "one of "+sudoku.SortNames())
	order := fs.String("order", "desc", "asc or desc")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errUsage{fmt.Sprintf("export: unexpected argument %q (the export goes to standard output)", fs.Arg(0))}
	}
	f, err := bulk.ParseFormat(*format)
	if err != nil {
		return errUsage{"export: " + err.Error()}
	}
	q := sudoku.ListQuery{Sort: sudoku.Sort(*sortBy)}
	if !q.Sort.Valid() {
		return errUsage{fmt.Sprintf("export: unknown sort %s (want one of %s)", sudoku.Echo(*sortBy), sudoku.SortNames())}
	}
	switch *order {
	case "asc":
	case "desc":
		q.Desc = true
	default:
		return errUsage{fmt.Sprintf("export: unknown order %s (want asc or desc)", sudoku.Echo(*order))}
	}

	db, err := openExisting(ctx, e, "export", *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := bulk.Export(ctx, db, e.stdout, f, q); err != nil {
		return err
	}
	return nil
}
