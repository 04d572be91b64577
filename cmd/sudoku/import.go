package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// runImport archives every puzzle line of the named files ('-' is standard
// input). Bad lines are reported on stderr and skipped; the summary goes to
// stdout. It fails (exit 1) only when a file cannot be read, the database
// fails, or the import is interrupted; rejected lines alone do not fail it.
func runImport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "import", "[--db sudoku.db] [--max-nodes N] [--grade full|quick|none] [--collection NAME [--author A] [--source S] [--licence L]] FILE ...   ('-' reads standard input)")
	grade := gradeFull
	fs.Var(&grade, "grade", gradeUsage+"; the grades come after the puzzles are archived, so an interrupted grading loses none")
	dbPath := dbFlag(fs, e)
	maxNodes := wholeFlag(fs, "max-nodes", archive.DefaultMaxNodes, 1, math.MaxInt64, "search budget of `N` nodes per puzzle, the server's by default; a puzzle past it is rejected as too hard")
	var col record.Collection
	fs.StringVar(&col.Name, "collection", "", "file every puzzle of the import (new or archived already) under this collection, made when new")
	fs.StringVar(&col.Author, "author", "", "the collection's author, when it is made")
	fs.StringVar(&col.Source, "source", "", "where the collection comes from, when it is made")
	fs.StringVar(&col.Licence, "licence", "", "the collection's licence, when it is made")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage{"import: no FILE given ('-' reads standard input)"}
	}
	if col.Name == "" && (col.Author != "" || col.Source != "" || col.Licence != "") {
		return errUsage{"import: --author, --source and --licence describe a --collection: give its name"}
	}

	inputs, total, closeInputs, err := openInputs(e, fs.Args())
	if err != nil {
		return err
	}
	defer closeInputs()

	db, err := openOrCreate(ctx, e, *dbPath)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer db.Close()

	var collection int64
	if col.Name != "" {
		c, created, err := db.EnsureCollection(ctx, col)
		if err != nil {
			return fmt.Errorf("import: collection: %w", err)
		}
		if created {
			fmt.Fprintf(e.stderr, "made collection %d: %s\n", c.ID, c.Name)
		}
		collection = c.ID
	}
	bar := newImportBar(e.stderr, total)
	opt := bulk.Options{
		MaxNodes:   *maxNodes,
		Collection: collection,
		Reject: func(r bulk.Rejection) {
			bar.clear()
			fmt.Fprintln(e.stderr, r.Error())
		},
		Progress: bar.update,
	}
	// The store is a bulk.Adder: puzzles archived already are left as
	// they are, so running the same import again finishes it.
	sum, err := e.newArchive(archive.Options{Store: db}).Import(ctx, inputs, opt)
	bar.finish()
	fmt.Fprintln(e.stdout, sum)
	if sum.Equivalents > 0 {
		fmt.Fprintf(e.stdout, "equivalent to archived puzzles: %d\n", sum.Equivalents)
	}
	if err == nil {
		return gradeAfterImport(ctx, e, db, grade)
	}
	if ctx.Err() != nil {
		return errors.New("import interrupted: the summary counts the committed batches only; run the same import again to finish it")
	}
	return fmt.Errorf("import: %w", err)
}

// openInputs opens every file before the first puzzle is archived, so a typo
// in the last name does not leave a half-done import. total is the bytes to
// read, -1 when unknown (standard input, or a file that is not regular).
// closeAll closes the files opened; it is set even when err is not nil.
func openInputs(e *env, names []string) (inputs []bulk.Input, total int64, closeAll func(), err error) {
	var files []*os.File
	closeAll = func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, name := range names {
		if name == "-" {
			inputs = append(inputs, bulk.Input{Name: "-", Reader: e.stdin})
			total = -1
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			closeAll()
			return nil, 0, func() {}, fmt.Errorf("import: %w", err)
		}
		files = append(files, f)
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			total = -1
		} else if total >= 0 {
			total += st.Size()
		}
		inputs = append(inputs, bulk.Input{Name: name, Reader: f})
	}
	return inputs, total, closeAll, nil
}

// gradeAfterImport grades what the import archived. The grades come after
// the commit (see docs/engine.md): what the summary counts is archived
// whatever happens to this pass.
func gradeAfterImport(ctx context.Context, e *env, db *store.DB, mode gradeMode) error {
	start := time.Now()
	b := newCountBar(e.stderr, "grading")
	g := mode.importGraders(db, b)
	if g == nil { // --grade none
		b.abandon()
		return saysPending(ctx, e, db)
	}
	n, gerr := g.Drain(ctx)
	b.finish()
	if gerr == nil && mode == gradeQuick {
		if err := saysPending(ctx, e, db); err != nil {
			return err
		}
	}
	// Piped, no bar says it (on a terminal the bar's last line does):
	// the grades are computed after the summary, and this says when they
	// are done (issue 34: it said nothing).
	if n > 0 && !isTerminal(e.stderr) {
		fmt.Fprintf(e.stderr, "graded %s (the human-style grade) in %.2fs\n", plural(n, "puzzle", "puzzles"), time.Since(start).Seconds())
	}
	if gerr != nil && ctx.Err() == nil {
		if record.KindOf(gerr) == record.KindBusy {
			// Other writers kept the archive locked past the retries:
			// nothing is lost, the rows stay pending.
			fmt.Fprintf(e.stderr, "grading stopped: %v; the grades finished are kept and the next serve or import grades the rest\n", gerr)
			return nil
		}
		return fmt.Errorf("import: grading: %w", gerr)
	}
	if ctx.Err() != nil {
		// The puzzles are safe; the grades finish in the background
		// of the next `sudoku serve` (or import).
		fmt.Fprintln(e.stderr, "grading interrupted: the grades finished are kept; the next serve or import grades the rest")
	}
	return nil
}

// importBar is the progress bar of an import: shown only when stderr is a
// terminal, nil (and every method a no-op) otherwise.
type importBar struct{ bar *progressbar.ProgressBar }

// newImportBar returns a bar over total input bytes (-1: unknown), which
// gives the ETA; the description counts puzzles and their rate.
func newImportBar(w io.Writer, total int64) *importBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("importing"),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	if total < 0 {
		// No spinner goroutine: the bar is drawn only from the import's
		// progress calls, so clearing it for a rejection never races a redraw.
		opts = append(opts, progressbar.OptionSetSpinnerChangeInterval(0))
	}
	return &importBar{progressbar.NewOptions64(total, opts...)}
}

func (b *importBar) update(p bulk.Progress) {
	if b == nil {
		return
	}
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Lines) / s
	}
	b.bar.Describe(fmt.Sprintf("%d puzzles, %.0f/s", p.Lines, rate))
	b.bar.Set64(p.Bytes)
}

func (b *importBar) clear() {
	if b != nil {
		b.bar.Clear()
	}
}

func (b *importBar) finish() {
	if b != nil {
		b.bar.Finish()
		b.bar.Clear()
	}
}
