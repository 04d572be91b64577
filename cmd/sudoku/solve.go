package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// maxLine bounds one input line; a longer line is reported, skipped and the
// rest of the input still read.
const maxLine = 64 << 10

// batchSize is how many puzzles a worker takes at once: big enough that the
// channel traffic costs nothing next to solving, small enough to keep every
// core busy to the end.
const batchSize = 256

// job is one input puzzle: its text and its line (or argument) number.
type job struct {
	line int
	text string
	grid bool   // parse with Parse (an argument may be a 9-line grid), not ParseLine
	err  string // set when the input line could not even be read
}

// batch is a run of jobs with their output, solved by one worker.
type batch struct {
	jobs   []job
	out    []byte // the stdout lines, in order
	notes  []byte // the stderr lines
	failed bool
}

// runSolve is `sudoku solve`. It solves batches of puzzles on every core
// through bulk.Ordered, the pipeline `sudoku import` rates with, and
// prints each batch's lines as soon as the batches before it are printed.
func runSolve(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "solve", "[--json [--grade full|quick|none]] [PUZZLE ...]\n\nSolves each PUZZLE argument or, with none, each line of stdin (blank lines\nand lines starting with '#' are skipped). Prints the 81-digit solution (or\n`error: REASON` for a puzzle it cannot solve), or with --json one object per line with the measures\nand the human-style grade (--grade says how far to grade: full, the default, takes seconds\nfor each of the hardest puzzles; quick milliseconds; none skips it). On a terminal, a run\nlonger than a second shows its progress on stderr.")
	asJSON := fs.Bool("json", false, "print one JSON object per puzzle with the measures, or {\"line\": N, \"error\": \"...\"}")
	grade := gradeFull
	fs.Var(&grade, "grade", gradeUsage+"; with --json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*asJSON && flagGiven(fs, "grade") {
		return errUsage{"solve: --grade says how far --json grades: give --json too"}
	}
	s := solveCmd{json: *asJSON, grade: grade}

	read := func(ctx context.Context, send func(*batch) bool) error {
		if fs.NArg() == 0 {
			return readJobs(e.stdin, send)
		}
		b := &batch{}
		for i, a := range fs.Args() {
			b.jobs = append(b.jobs, job{line: i + 1, text: a, grid: true})
		}
		send(b)
		return nil
	}
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	failed := false
	progress := newSolveProgress(e.stderr)
	defer progress.finish()
	emit := func(b *batch) error {
		failed = failed || b.failed
		progress.add(len(b.jobs), len(b.notes) > 0)
		if _, err := out.Write(b.out); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		if len(b.notes) > 0 {
			if err := out.Flush(); err != nil { // keep stdout ahead of the notes about it
				return fmt.Errorf("write output: %w", err)
			}
			e.stderr.Write(b.notes)
		}
		return nil
	}
	err := bulk.Ordered(ctx, 0, read, s.solveBatch, emit)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write output: %w", ferr)
	}
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	if failed {
		return errQuiet
	}
	return nil
}

// readJobs reads r into batches of jobs, one per puzzle line, and hands
// them to send until it returns false.
func readJobs(r io.Reader, send func(*batch) bool) error {
	br := bufio.NewReaderSize(r, maxLine)
	b := &batch{}
	flush := func() bool {
		if len(b.jobs) == 0 {
			return true
		}
		ok := send(b)
		b = &batch{}
		return ok
	}
	for n := 1; ; n++ {
		line, tooLong, err := readLine(br)
		if len(line) > 0 || tooLong {
			t := strings.TrimSpace(line)
			switch {
			case tooLong:
				b.jobs = append(b.jobs, job{line: n, err: fmt.Sprintf("line longer than %d bytes", maxLine)})
			case t == "" || t[0] == '#':
			default:
				b.jobs = append(b.jobs, job{line: n, text: line})
			}
			if len(b.jobs) == batchSize && !flush() {
				return nil
			}
		}
		if err == io.EOF {
			flush()
			return nil
		}
		if err != nil {
			flush()
			return fmt.Errorf("read stdin line %d: %w", n, err)
		}
	}
}

// readLine reads one line without its line ending. A line longer than the
// reader's buffer is skipped to its end and reported as tooLong.
func readLine(br *bufio.Reader) (line string, tooLong bool, err error) {
	b, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = br.ReadSlice('\n')
		}
		return "", true, err
	}
	line = strings.TrimRight(string(b), "\r\n")
	return line, false, err
}

// puzzle reads the job's text in every form puzzle text takes
// (puzzletext): an argument whole (it may be a 9-line grid), a line of
// stdin as a line (text after its 81 cells ignored).
func (j job) puzzle() (puzzletext.Puzzle, error) {
	if j.grid {
		return puzzletext.Read(j.text)
	}
	return puzzletext.ReadLine(j.text)
}

// rateJSON measures in and returns its --json line: a classic puzzle with
// the engine and graded as --grade says; a variant with the variant
// engine (record.RateVariant: its rules, variant names and links), not
// graded (the human-style solver grades classic puzzles).
func (s *solveCmd) rateJSON(ctx context.Context, in puzzletext.Puzzle, opt sudoku.Options) ([]byte, error) {
	var (
		p   record.Puzzle
		err error
	)
	if in.Classic() {
		if p, err = record.Rate(in.Givens, opt); err == nil {
			s.grade.grade(ctx, &p)
		}
	} else if p, err = record.RateVariant(in.Puzzle, opt); err == nil {
		p.GradeStatus = record.GradeNone // nothing will grade it
	}
	if err != nil {
		return nil, err
	}
	if in.Title != "" || in.Author != "" {
		p.Title, p.Author = in.Title, in.Author
		p.SetLinks()
	}
	return json.Marshal(solvedJSON{Puzzle: p})
}

// solveCmd holds the options of one solve run.
type solveCmd struct {
	json  bool
	grade gradeMode // how far --json grades
}

// lineError is the --json form of a puzzle that could not be solved.
// solvedJSON is a puzzle object without the fields only an archive has
// (collections, submitted_by): the shallower fields, always nil, hide them.
type solvedJSON struct {
	record.Puzzle
	Collections *struct{} `json:"collections,omitempty"`
	SubmittedBy *struct{} `json:"submitted_by,omitempty"`
}

type lineError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// solveBatch solves the jobs of b, writing their output into b.
func (s *solveCmd) solveBatch(ctx context.Context, b *batch) *batch {
	for _, j := range b.jobs {
		s.solveOne(ctx, b, j)
	}
	return b
}

func (s *solveCmd) solveOne(ctx context.Context, b *batch, j job) {
	fail := func(msg string) {
		b.failed = true
		if s.json {
			line, _ := json.Marshal(lineError{Line: j.line, Error: msg})
			b.out = append(append(b.out, line...), '\n')
			return
		}
		// Plain output keeps one line per input puzzle, so the answers stay
		// aligned with the input; the details go to stderr.
		b.out = fmt.Appendf(b.out, "error: %s\n", msg)
		b.notes = fmt.Appendf(b.notes, "sudoku solve: line %d: %s\n", j.line, msg)
	}
	if j.err != "" {
		fail(j.err)
		return
	}
	in, err := j.puzzle()
	if err != nil {
		fail(err.Error())
		return
	}
	opt := sudoku.Options{Done: ctx.Done()}
	if s.json {
		line, err := s.rateJSON(ctx, in, opt)
		if err != nil {
			fail(err.Error())
			return
		}
		b.out = append(append(b.out, line...), '\n')
		return
	}
	r, err := variant.Solve(in.Puzzle, opt) // a classic puzzle: sudoku.Solve
	switch {
	case err != nil:
		fail(err.Error())
		return
	case r.Solutions == 0:
		fail(sudoku.ErrNoSolution.Error())
		return
	case r.Solutions > 1:
		b.notes = fmt.Appendf(b.notes, "sudoku solve: line %d: puzzle has more than one solution; printed the first\n", j.line)
	}
	b.out = append(r.Solution.Append(b.out), '\n')
}
