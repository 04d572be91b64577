package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// exportSynopsis is the usage line of `sudoku export`.
const exportSynopsis = "[--db sudoku.db] [--format txt|csv|json] [--sort FIELD] [--order asc|desc] [--band BAND] [--grade-min G] [--grade-max G] [--technique NAME ...] [--unique] [--distinct]"

// runExport writes every archived puzzle to stdout, or those its filters
// keep. The defaults (sort difficulty, order desc) are the API's, so --sort
// and --order mean the same everywhere; `--sort submitted --order asc`
// gives the archive's own order. The filters are GET /api/export's that
// need no player (see exportFilters).
func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "export", exportSynopsis)
	dbPath := existingDBFlag(fs, e, "the archive to export, which must exist: an SQLite file or a PostgreSQL URL (postgres://user@host/db)")
	format := fs.String("format", string(bulk.TXT), "txt (one puzzle per line), csv (header row, every field) or json (one object per line)")
	sortBy := fs.String("sort", string(record.SortDifficulty), "one of "+record.SortNames())
	order := fs.String("order", "desc", "asc or desc")
	filters := exportFilterFlags(fs)
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
	q := record.ListQuery{Sort: record.Sort(*sortBy)}
	if !q.Sort.Valid() {
		return errUsage{fmt.Sprintf("export: unknown sort %s (want one of %s)", userinput.Echo(*sortBy), record.SortNames())}
	}
	switch *order {
	case "asc":
	case "desc":
		q.Desc = true
	default:
		return errUsage{fmt.Sprintf("export: unknown order %s (want asc or desc)", userinput.Echo(*order))}
	}
	if err := filters.apply(&q); err != nil {
		return err
	}

	db, err := openExisting(ctx, e, "export", *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	r, err := bulk.ExportReport(ctx, db, e.stdout, f, q, "")
	if err != nil {
		return err
	}
	if r.VariantsLeftOut > 0 { // a TXT line holds a classic puzzle only; the file's last line says so too
		fmt.Fprintf(e.stderr, "export: %d variant puzzles left out: a TXT line holds a classic puzzle only (export JSON or CSV for them)\n", r.VariantsLeftOut)
	}
	return nil
}

// exportFilters are the listing's filters as `sudoku export` takes them:
// GET /api/export's band, grade_min, grade_max, technique, unique and
// distinct, read by the same readers (grades by userinput.ParseGrade,
// techniques by logic.ParseTechniques), so the two refuse and accept the
// same values. The API's played filter names the asking player's puzzles;
// the command has no player, so it has none.
type exportFilters struct {
	band               *string
	gradeMin, gradeMax gradeValue
	techniques         manyValue
	unique, distinct   *bool
}

// exportFilterFlags defines the filter flags on fs.
func exportFilterFlags(fs *flag.FlagSet) *exportFilters {
	f := &exportFilters{gradeMin: gradeValue{name: "grade-min"}, gradeMax: gradeValue{name: "grade-max"}}
	f.band = fs.String("band", "", "only the puzzles of this band: "+bandNames())
	fs.Var(&f.gradeMin, "grade-min", "only the puzzles graded at least `G` ("+userinput.GradeScale+")")
	fs.Var(&f.gradeMax, "grade-max", "only the puzzles graded at most `G`")
	fs.Var(&f.techniques, "technique", "only the puzzles whose logical path uses the technique `NAME` (a name in any case, or its slug as in /techniques/SLUG); repeat it for several: all of them")
	f.unique = fs.Bool("unique", false, "only the puzzles with exactly one solution")
	f.distinct = fs.Bool("distinct", false, "one row per puzzle: leave out the entries that are another way of writing an archived puzzle")
	return f
}

// apply sets q's filters, or says which flag is wrong (exit 2).
func (f *exportFilters) apply(q *record.ListQuery) error {
	if *f.band != "" {
		q.Band = sudoku.Band(*f.band)
		if !q.Band.Valid() {
			return errUsage{fmt.Sprintf("export: unknown --band %s (want one of %s)", userinput.Echo(*f.band), bandNames())}
		}
	}
	q.GradeMin, q.GradeMax = f.gradeMin.tenths, f.gradeMax.tenths
	if q.GradeMin > 0 && q.GradeMax > 0 && q.GradeMin > q.GradeMax {
		return errUsage{fmt.Sprintf("export: --grade-min %s is above --grade-max %s", f.gradeMin.String(), f.gradeMax.String())}
	}
	ts, err := logic.ParseTechniques("--technique", f.techniques)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	q.Techniques, q.UniqueOnly, q.Distinct = ts, *f.unique, *f.distinct
	return nil
}

// bandNames lists the bands for a message: "easy, medium, ...".
func bandNames() string {
	names := make([]string, len(sudoku.Bands))
	for i, b := range sudoku.Bands {
		names[i] = string(b.Band)
	}
	return strings.Join(names, ", ")
}
