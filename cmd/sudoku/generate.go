package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// defaultGenerateBudget is how long `sudoku generate` looks for one puzzle
// before it gives up: an extreme puzzle takes a few seconds of one core on
// average (docs/engine.md, Generating puzzles), so a minute fails only for
// targets that are truly rare.
const defaultGenerateBudget = time.Minute

// maxGenerateCount bounds --count: a billion puzzles is days of work.
const maxGenerateCount = 1_000_000_000

// archiveBatch is how many generated puzzles go into one SubmitMany.
const archiveBatch = 100

// runGenerate is `sudoku generate`: it makes --count puzzles on every core
// through bulk.Ordered and prints them in order (the i-th from the seed
// generate.SeedFor(seed, i), whichever worker makes it).
func runGenerate(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "generate", "[--band BAND | --grade MIN-MAX] [--count N] [--symmetric] [--seed S] [--json] [--archive [--db sudoku.db]]\n\nPrints new puzzles, one per line ('.' for blanks) or with --json the solve\nobject, each with exactly one solution, minimal, and in the asked band or\ngrade range. The same --seed prints the same puzzles.")
	band := fs.String("band", "", "band: easy, medium, hard, fiendish or extreme, a range of grades (see docs/engine.md; default medium)")
	grade := fs.String("grade", "", "grade range MIN-MAX on Sudoku Explainer's scale, e.g. 4.0-6.5 ("+userinput.GradeScale+")")
	count := wholeFlag(fs, "count", 1, 1, maxGenerateCount, "make `N` puzzles")
	symmetric := fs.Bool("symmetric", false, "givens in 180° rotational symmetry")
	seedText := fs.String("seed", "", "seed (a whole number) that reproduces the run; random when left out, and then printed on stderr")
	asJSON := fs.Bool("json", false, "print the solve object of each puzzle, as 'sudoku solve --json' does")
	toArchive := fs.Bool("archive", false, "also archive the puzzles in the database (--db)")
	budget := fs.Duration("budget", defaultGenerateBudget, "give up a puzzle not found within this time")
	dbPath := dbFlag(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errUsage{fmt.Sprintf("generate: unexpected argument %q", fs.Arg(0))}
	}
	t, err := generateTarget(*band, *grade)
	if err != nil {
		return err
	}
	if *budget <= 0 {
		return errUsage{"generate: --budget must be positive"}
	}
	seed, err := generateSeed(e, *seedText)
	if err != nil {
		return err
	}

	g := &generateCmd{target: t, count: int(*count), symmetric: *symmetric, seed: seed,
		json: *asJSON, budget: *budget, out: bufio.NewWriter(e.stdout)}
	if *toArchive {
		db, err := openOrCreate(ctx, e, *dbPath)
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		defer db.Close()
		g.db = e.newArchive(archive.Options{Store: db})
	}
	g.bar = newCountBar(e.stderr, "generating")
	err = bulk.Ordered(ctx, 0, g.read, g.work, g.emit)
	if err == nil {
		err = g.flush(ctx)
	}
	g.bar.finish()
	if ferr := g.out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write output: %w", ferr)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("generate interrupted after %d puzzles (%d archived)", g.done, g.archived)
	case err != nil:
		return fmt.Errorf("generate: %w", err)
	}
	if g.db != nil {
		fmt.Fprintf(e.stderr, "archived %d puzzles\n", g.archived)
	}
	return nil
}

// generateTarget is the band or grade range that --band and --grade ask
// for: medium when neither is given, a usage error when both are.
func generateTarget(band, grade string) (generate.Target, error) {
	var t generate.Target
	switch {
	case band != "" && grade != "":
		return t, errUsage{"generate: give --band or --grade, not both"}
	case grade != "":
		var err error
		if t, err = generate.ParseGrade("--grade", grade); err != nil {
			return t, errUsage{"generate: " + err.Error()}
		}
	default:
		t.Band = sudoku.BandMedium
		if band != "" {
			t.Band = sudoku.Band(band)
		}
		if err := t.Validate(); err != nil {
			return t, errUsage{"generate: --band: " + err.Error()}
		}
	}
	return t, nil
}

// generateSeed is the seed of --seed, or a random one (printed on stderr, so
// the run can be reproduced) when it is left out.
func generateSeed(e *env, text string) (uint64, error) {
	if text == "" {
		var b [8]byte
		rand.Read(b[:])
		seed := binary.LittleEndian.Uint64(b[:]) >> 1 // fits an int64 too, for scripts
		fmt.Fprintf(e.stderr, "sudoku generate: seed %d\n", seed)
		return seed, nil
	}
	seed, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, errUsage{fmt.Sprintf("generate: --seed %q: use a whole number from 0 to %d", text, uint64(1<<64-1))}
	}
	return seed, nil
}

// generateCmd is one `sudoku generate` run, a pipeline of three stages
// (bulk.Ordered): read numbers the puzzles, work makes one, emit prints
// it and hands it to the archive in batches.
type generateCmd struct {
	target    generate.Target
	count     int
	symmetric bool
	seed      uint64
	json      bool
	budget    time.Duration

	out      *bufio.Writer
	bar      *countBar
	db       *archive.Archive // nil without --archive
	pending  []record.Puzzle  // emitted, not yet archived
	done     int
	archived int
}

// generated is one puzzle of the run, made or failed.
type generated struct {
	i   int
	p   record.Puzzle
	err error
}

func (g *generateCmd) read(ctx context.Context, send func(*generated) bool) error {
	for i := range g.count {
		if !send(&generated{i: i}) {
			return nil
		}
	}
	return nil
}

func (g *generateCmd) work(ctx context.Context, it *generated) *generated {
	ctx, cancel := context.WithTimeout(ctx, g.budget)
	defer cancel()
	it.p, _, it.err = generate.Generate(ctx, generate.Request{
		Target: g.target, Symmetric: g.symmetric, Seed: generate.SeedFor(g.seed, it.i),
	})
	return it
}

func (g *generateCmd) emit(it *generated) error {
	if it.err != nil {
		var miss *generate.MissError
		if errors.As(it.err, &miss) {
			return fmt.Errorf("puzzle %d of %d: %w (--budget %s)", it.i+1, g.count, it.err, g.budget)
		}
		return fmt.Errorf("puzzle %d of %d: %w", it.i+1, g.count, it.err)
	}
	if g.json {
		line, err := json.Marshal(it.p)
		if err != nil {
			return err
		}
		g.out.Write(line)
	} else {
		g.out.WriteString(it.p.Givens.String())
	}
	if err := g.out.WriteByte('\n'); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	g.done++
	g.bar.set(int64(g.done), int64(g.count))
	if g.db != nil {
		g.pending = append(g.pending, it.p)
		if len(g.pending) >= archiveBatch {
			return g.flush(context.Background())
		}
	}
	return nil
}

// flush archives the pending puzzles in one transaction.
func (g *generateCmd) flush(ctx context.Context) error {
	if g.db == nil || len(g.pending) == 0 {
		return nil
	}
	if _, err := g.db.SubmitMany(ctx, archive.RoadGenerate, g.pending); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	g.archived += len(g.pending)
	g.pending = g.pending[:0]
	return nil
}
