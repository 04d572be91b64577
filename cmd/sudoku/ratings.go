package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// runRatings is `sudoku ratings refit`: every players' figure recomputed
// from the attempts alone (docs/ratings.md).
func runRatings(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "ratings", "refit [--db FILE]\n\nrefit recomputes every puzzle's and player's figures from the attempts alone; the same attempts give the same figures.")
	dbPath := dbFlag(fs, e)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "refit" {
		fs.Usage()
		return errUsage{"ratings takes one subcommand: refit"}
	}
	db, err := openExisting(ctx, e, "ratings refit", *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	bar := newCountBar(e.stderr, "refitting")
	sum, err := db.Refit(ctx, bar.set)
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, sum)
	return db.Close()
}

// runAttempts is `sudoku attempts import`: a play history from elsewhere
// (docs/ratings.md "Attempts import").
func runAttempts(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "attempts", "import [--db FILE] [--create] [--max-nodes N] FILE   ('-' reads standard input)\n\n"+
		`FILE holds one JSON object a line: {"player": NAME, "puzzle": "<81 cells>", "seconds": S, "outcome": "solved"|"gave_up", "hints": H, "at": "RFC 3339"}.`)
	dbPath := dbFlag(fs, e)
	maxNodes := wholeFlag(fs, "max-nodes", archive.DefaultMaxNodes, 1, math.MaxInt64, "search budget of `N` nodes per new puzzle; a puzzle past it is rejected as too hard")
	create := fs.Bool("create", false, "create the archive if there is none at --db (without it, a mistyped --db is an error, never a new archive)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "import" {
		fs.Usage()
		return errUsage{"attempts takes one subcommand and a file: import FILE ('-' reads standard input)"}
	}
	if !*create {
		if err := requireArchive("attempts import", *dbPath, "attempts import --create"); err != nil {
			return err
		}
	}
	in, name, closeIn, err := openAttempts(e, pos[1])
	if err != nil {
		return err
	}
	defer closeIn()
	start := time.Now()
	// Bad lines are found in two passes (the lines, then their puzzles in
	// `at` order); they are reported together, in line order.
	var rejects []attemptReject
	reject := func(line int64, err error) { rejects = append(rejects, attemptReject{line, err}) }
	lines, rejected, err := readAttempts(in, reject)
	if err != nil {
		return fmt.Errorf("attempts import: read %s: %w", name, err)
	}
	db, err := openOrCreate(ctx, e, *dbPath)
	if err != nil {
		return fmt.Errorf("attempts import: %w", err)
	}
	defer db.Close()
	as, puzzles, bad, err := archiveAttempts(ctx, db, e.newArchive(archive.Options{Store: db, MaxNodes: *maxNodes}), lines, reject)
	if err != nil {
		return fmt.Errorf("attempts import: %w", err)
	}
	slices.SortStableFunc(rejects, func(a, b attemptReject) int { return cmp.Compare(a.line, b.line) })
	for _, r := range rejects {
		fmt.Fprintf(e.stderr, "%s:%d: %v\n", name, r.line, r.err)
	}
	bar := newCountBar(e.stderr, "importing attempts")
	players, err := db.ImportAttempts(ctx, as, bar.set)
	bar.finish()
	if err != nil {
		return fmt.Errorf("attempts import: %w", err)
	}
	fmt.Fprintf(e.stdout, "imported %d attempts, players %d, puzzles %d, rejected %d in %.2fs\n",
		len(as), players, puzzles, rejected+bad, time.Since(start).Seconds())
	if puzzles > 0 {
		return gradeAfterImport(ctx, e, db, gradeFull)
	}
	return db.Close()
}

// openAttempts opens the file name ('-': standard input).
func openAttempts(e *env, name string) (io.Reader, string, func(), error) {
	if name == "-" {
		return e.stdin, "-", func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", nil, fmt.Errorf("attempts import: %w", err)
	}
	return f, name, func() { f.Close() }, nil
}

// An attemptReject is a bad line of an attempts import: its number and why.
type attemptReject struct {
	line int64
	err  error
}

// An attemptLine is a line of an attempts import that parsed.
type attemptLine struct {
	n  int64
	im account.Imported
}

// readAttempts parses every line of r, reporting each bad one (its
// number, 1-based, and why) to reject; blank lines are skipped. rejected
// counts the bad lines.
func readAttempts(r io.Reader, reject func(int64, error)) (lines []attemptLine, rejected int64, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := int64(1); ; n++ {
		line, long, err := readCapped(br, account.MaxImportLine)
		if len(bytes.TrimSpace(line)) > 0 || long {
			im, perr := account.ParseImported(line)
			if long {
				perr = fmt.Errorf("%w: the line is longer than %d bytes", account.ErrBadImport, account.MaxImportLine)
			}
			if perr != nil {
				reject(n, perr)
				rejected++
			} else {
				lines = append(lines, attemptLine{n, im})
			}
		}
		if errors.Is(err, io.EOF) {
			return lines, rejected, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
}

// readCapped reads one line of br without its end (\n or \r\n), keeping at
// most limit bytes: long is true when it had more (the rest is skipped).
func readCapped(br *bufio.Reader, limit int) (line []byte, long bool, err error) {
	var buf []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(buf)+len(part) <= limit+2 {
			buf = append(buf, part...)
		} else {
			long = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		return buf, long, err
	}
}

// An importPuzzle is a puzzle of an attempts import: its grid, why it
// cannot be archived, or its id.
type importPuzzle struct {
	g   sudoku.Grid
	err error
	id  int64
}

// archiveAttempts archives the puzzles of lines the archive lacks (rated
// within a's budget; a puzzle that cannot be archived rejects its lines)
// and returns the attempts in `at` order (then line order) with their
// puzzles' ids, how many puzzles it archived and how many lines it
// rejected.
func archiveAttempts(ctx context.Context, db *store.DB, a *archive.Archive, lines []attemptLine, reject func(int64, error)) ([]store.ImportedAttempt, int64, int64, error) {
	var order []string
	byText := map[string]*importPuzzle{}
	for _, l := range lines {
		if byText[l.im.Puzzle] == nil {
			g, err := sudoku.Parse(l.im.Puzzle)
			if err == nil && g.Clues() == 0 {
				err = record.ErrNoGivens
			}
			byText[l.im.Puzzle] = &importPuzzle{g: g, err: err}
			order = append(order, l.im.Puzzle)
		}
	}
	fresh, err := archivePuzzles(ctx, db, a, order, byText)
	if err != nil {
		return nil, 0, 0, err
	}
	var as []store.ImportedAttempt
	var bad int64
	slices.SortStableFunc(lines, func(a, b attemptLine) int { return a.im.At.Compare(b.im.At) })
	for _, l := range lines {
		p := byText[l.im.Puzzle]
		if p.err != nil || p.id == 0 {
			reject(l.n, fmt.Errorf("%w: puzzle: %v", account.ErrBadImport, cmp.Or(p.err, errors.New("not archived"))))
			bad++
			continue
		}
		as = append(as, store.ImportedAttempt{Imported: l.im, PuzzleID: p.id})
	}
	return as, fresh, bad, nil
}

// archivePuzzles finds the id of every puzzle of byText (texts in order)
// that parsed, rating and archiving those the archive lacks (a puzzle that
// cannot be rated gets its err); fresh counts the puzzles archived.
func archivePuzzles(ctx context.Context, db *store.DB, a *archive.Archive, order []string, byText map[string]*importPuzzle) (fresh int64, err error) {
	var grids []sudoku.Grid
	var texts []string
	for _, t := range order {
		if p := byText[t]; p.err == nil {
			grids, texts = append(grids, p.g), append(texts, t)
		}
	}
	ids, err := db.IDsByGivens(ctx, grids)
	if err != nil {
		return 0, err
	}
	// A hidden puzzle, written any way, takes no attempts: its lines are
	// rejected with the moderator's reason (IDsByGivens does not find it).
	hidden, err := db.HiddenClasses(ctx)
	if err != nil {
		return 0, err
	}
	// The puzzles the archive lacks come in by a's road of the attempts
	// import: rated within its budget, counted.
	var rated []record.Puzzle
	var ratedText []string
	for i, t := range texts {
		p := byText[t]
		if p.id = ids[i]; p.id != 0 {
			continue
		}
		r, err := a.Rate(ctx, p.g, false)
		if h := hidden.Of(&r); err == nil && h != nil {
			err = h
		}
		if p.err = err; err == nil {
			rated, ratedText = append(rated, r), append(ratedText, t)
		}
	}
	if err := ctx.Err(); err != nil || len(rated) == 0 {
		return 0, err
	}
	dup, err := a.AddMany(ctx, archive.RoadAttempts, rated)
	if err != nil {
		return 0, err
	}
	for _, d := range dup {
		if !d { // another text of the same givens is a duplicate
			fresh++
		}
	}
	gs := make([]sudoku.Grid, len(rated))
	for i := range rated {
		gs[i] = rated[i].Givens
	}
	if ids, err = db.IDsByGivens(ctx, gs); err != nil {
		return 0, err
	}
	for i, t := range ratedText {
		byText[t].id = ids[i]
	}
	return fresh, nil
}
