package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// copyBatch is how many rows `sudoku copy` commits at a time: a copy cut
// short leaves whole batches.
const copyBatch = 4096

// runCopy is `sudoku copy --from SRC --to DST`: it moves an archive from
// one database to another (an SQLite file or a PostgreSQL URL, either
// way) row for row, ids and all, into an empty destination, then reads
// both back and compares them.
func runCopy(ctx context.Context, e *env, args []string) (err error) {
	fs := newFlagSet(e, "copy", "--from SRC --to DST")
	from := fs.String("from", "", "the archive to copy: an SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the empty archive to fill: an SQLite file (created) or a postgres:// URL (an existing database)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return errUsage{fmt.Sprintf("copy takes no arguments, got %q", fs.Args())}
	case *from == "" || *to == "":
		return errUsage{"copy needs --from and --to"}
	case *from == *to:
		return errUsage{"--from and --to name the same archive"}
	}
	if missingArchive(*from) {
		return fmt.Errorf("copy: no archive at %s: check --from (copy does not create the source)", *from)
	}
	src, err := store.Open(ctx, *from)
	if err != nil {
		return err
	}
	defer closeInto(src, &err)
	dst, err := store.Open(ctx, *to)
	if err != nil {
		return err
	}
	defer closeInto(dst, &err)

	srcStats, err := src.Stats(ctx)
	if err != nil {
		return err
	}
	dstStats, err := dst.Stats(ctx)
	if err != nil {
		return err
	}
	if dstStats.Total > 0 {
		return fmt.Errorf("copy: %s holds %d puzzles already: the destination must be an empty archive", store.Redact(*to), dstStats.Total)
	}

	start := time.Now()
	bar := newCountBar(e.stderr, "copying")
	n, err := copyRows(ctx, src, dst, srcStats.Total, bar.set)
	bar.finish()
	if err != nil {
		return fmt.Errorf("copy: %w (the destination keeps the %d puzzles committed before; empty it to start again)", err, n)
	}
	days, err := src.Dailies(ctx)
	if err != nil {
		return err
	}
	for _, d := range days {
		p, err := dst.Puzzle(ctx, d.PuzzleID)
		if err != nil {
			return fmt.Errorf("copy the puzzle of the day %s: %w", d.Date, err)
		}
		if _, err := dst.SetDaily(ctx, d.Date, p); err != nil {
			return fmt.Errorf("copy: %w", err)
		}
	}
	settings, err := src.Settings(ctx)
	if err != nil {
		return err
	}
	if err := dst.PutSettings(ctx, settings); err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	fmt.Fprintf(e.stdout, "copied %d puzzles and %d puzzles of the day in %.2fs\n", n, len(days), time.Since(start).Seconds())

	start = time.Now()
	bar = newCountBar(e.stderr, "verifying")
	err = verifyCopy(ctx, src, dst, srcStats.Total, bar.set)
	bar.finish()
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Fprintf(e.stdout, "verified: every row, the puzzles of the day, the counters and the settings are the same in both, in %.2fs\n", time.Since(start).Seconds())
	return nil
}

// closeInto closes db, joining a failure to *err.
func closeInto(db *store.DB, err *error) {
	if cerr := db.Close(); cerr != nil {
		*err = errors.Join(*err, cerr)
	}
}

// allInIDOrder is the export order of a copy: every row, by id.
var allInIDOrder = sudoku.ListQuery{Sort: sudoku.SortSubmitted}

// copyRows streams the rows of src in id order into dst, copyBatch to a
// transaction, and returns how many it committed.
func copyRows(ctx context.Context, src, dst *store.DB, total int64, progress func(done, total int64)) (int64, error) {
	var n int64
	batch := make([]sudoku.Puzzle, 0, copyBatch)
	flush := func() error {
		if err := dst.Restore(ctx, batch); err != nil {
			return err
		}
		n += int64(len(batch))
		batch = batch[:0]
		progress(n, total)
		return nil
	}
	err := src.Export(ctx, allInIDOrder, func(p sudoku.Puzzle) error {
		batch = append(batch, p)
		if len(batch) == copyBatch {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return n, err
}

// verifyCopy reads both archives in id order side by side and compares
// every field of every row, then the puzzles of the day and the counters.
// It reports the first difference.
func verifyCopy(ctx context.Context, src, dst *store.DB, total int64, progress func(done, total int64)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows := make(chan sudoku.Puzzle, 256)
	readErr := make(chan error, 1)
	go func() {
		defer close(rows)
		readErr <- dst.Export(ctx, allInIDOrder, func(p sudoku.Puzzle) error {
			select {
			case rows <- p:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var n int64
	err := src.Export(ctx, allInIDOrder, func(want sudoku.Puzzle) error {
		got, ok := <-rows
		if !ok {
			return fmt.Errorf("the destination ends after %d rows; the source has puzzle %d next", n, want.ID)
		}
		if d := puzzleDiff(want, got); d != "" {
			return fmt.Errorf("row %d (puzzle %d): %s", n+1, want.ID, d)
		}
		n++
		if n%copyBatch == 0 {
			progress(n, total)
		}
		return nil
	})
	if err != nil {
		cancel()
		for range rows {
		}
		<-readErr
		return err
	}
	if got, ok := <-rows; ok {
		return fmt.Errorf("the destination has puzzle %d past the source's %d rows", got.ID, n)
	}
	if err := <-readErr; err != nil {
		return err
	}
	progress(n, total)

	for _, f := range []func(*store.DB) (any, error){
		func(db *store.DB) (any, error) { return db.Dailies(ctx) },
		func(db *store.DB) (any, error) { return db.Stats(ctx) },
		func(db *store.DB) (any, error) { return db.Settings(ctx) },
	} {
		want, err := f(src)
		if err != nil {
			return err
		}
		got, err := f(dst)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(want, got) {
			return fmt.Errorf("the source has %v, the destination %v", want, got)
		}
	}
	return nil
}

// puzzleDiff names the first field in which got differs from want, with
// both values, or returns "".
func puzzleDiff(want, got sudoku.Puzzle) string {
	opt := func(p *int64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, f := range []struct {
		name      string
		want, got any
	}{
		{"id", want.ID, got.ID},
		{"givens", want.Givens, got.Givens},
		{"canonical", want.Canonical, got.Canonical},
		{"solution", want.Solution, got.Solution},
		{"clues", want.Clues, got.Clues},
		{"solutions", want.Solutions, got.Solutions},
		{"backtracks", want.Backtracks, got.Backtracks},
		{"guesses", want.Guesses, got.Guesses},
		{"nodes", want.Nodes, got.Nodes},
		{"solve_ns", want.SolveNS, got.SolveNS},
		{"engine_version", want.EngineVersion, got.EngineVersion},
		{"submitted_at", want.SubmittedAt.UnixNano(), got.SubmittedAt.UnixNano()},
		{"submissions", want.Submissions, got.Submissions},
		{"same_as", opt(want.SameAs), opt(got.SameAs)},
		{"grade", want.GradeTenths(), got.GradeTenths()},
		{"grade_floor", want.GradeFloor, got.GradeFloor},
		{"technique", want.Technique, got.Technique},
		{"grade_version", want.GradeVersion, got.GradeVersion},
		{"grade_ep", sudoku.TenthsOf(want.GradeEP), sudoku.TenthsOf(got.GradeEP)},
		{"grade_ed", sudoku.TenthsOf(want.GradeED), sudoku.TenthsOf(got.GradeED)},
		{"techniques", want.Techniques, got.Techniques},
	} {
		if f.want != f.got {
			return fmt.Sprintf("%s is %v in the source, %v in the destination", f.name, f.want, f.got)
		}
	}
	return ""
}
