// Package bulk moves whole collections in and out of the archive: Import
// reads puzzle files line by line, rates every puzzle on all cores and
// archives them in large transactions; Export streams the archive out as
// text, CSV or JSON lines. It knows nothing of flags, terminals or HTTP: the
// command line and the web server both drive it.
package bulk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Sink is what Import needs of the archive.
type Sink interface {
	// SubmitMany archives ps in one durable transaction. duplicate[i] is true
	// when ps[i]'s givens were archived before (earlier in ps included); their
	// submission count is bumped instead.
	SubmitMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error)
}

// An Adder is a Sink that can also archive puzzles without counting a
// submission for those archived already (store.DB.AddMany). Import uses
// AddMany when the sink has it: an import adds the puzzles the archive
// lacks and leaves every stored puzzle as it was, so running the same
// import again, after an interruption or by mistake, finishes it and
// changes nothing else.
type Adder interface {
	AddMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error)
}

// A Moderated sink knows the puzzles moderators have hidden
// (store.DB.HiddenClasses): Import rejects their lines with the reason
// instead of failing the batch that holds one.
type Moderated interface {
	HiddenClasses(ctx context.Context) (moderation.HiddenSet, error)
}

// A PartAdder is an Adder that can also take one transaction in parts
// (store.DB.AddParts): Import then hands it a batch partSize puzzles at a
// time, so a batch is held whole only in the compact form Import keeps,
// not as record.Puzzle values. It returns how many of the transaction's
// puzzles were duplicates and how many of the new ones are another way of
// writing an archived puzzle.
type PartAdder interface {
	AddParts(ctx context.Context, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error)
}

// A CollectionAdder is a PartAdder that can also file every puzzle of a
// transaction, new or archived already, under a collection in that
// transaction (store.DB.AddPartsTo): Import uses it for
// Options.Collection.
type CollectionAdder interface {
	AddPartsTo(ctx context.Context, collection int64, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error)
}

// collectionParts is a CollectionAdder as the PartAdder of one collection.
type collectionParts struct {
	ca CollectionAdder
	id int64
}

func (c collectionParts) AddParts(ctx context.Context, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error) {
	return c.ca.AddPartsTo(ctx, c.id, parts)
}

// partSize is how many puzzles a part of a batch handed to a PartAdder
// holds.
const partSize = 1024

// Input is one stream of puzzle lines; Name is how rejections refer to it
// (a file name, or "-" for standard input).
type Input struct {
	Name   string
	Reader io.Reader
}

// Defaults for Options.
const (
	DefaultBatchSize   = 4096
	DefaultMaxLineSize = 64 << 10
)

// MaxBatchSize is the largest batch of an import that leaves
// Options.BatchSize 0. A batch is one transaction; in a large archive its
// rows land on pages all over the indexes, and each such page is written
// once per commit however many of the batch's rows it takes, so larger
// batches write less per puzzle. A batch is written only once every one of
// its puzzles is rated, while the next batch is being rated: so an import
// holds two batches in memory (152 bytes a puzzle, 10 MB at this size, see
// rated),
// and the last batch commits with nothing left to overlap it. That is why
// a batch is at most an eighth of what the import cut before it (see
// growBatch), and a short file such as the 17-clue list (49,158 puzzles)
// goes in batches of DefaultBatchSize.
const MaxBatchSize = 16 * DefaultBatchSize

// Options tune an import. The zero value is usable.
type Options struct {
	// Workers is the number of puzzles rated at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// BatchSize is the number of puzzles committed per transaction; 0 means
	// DefaultBatchSize, growing in a long import up to MaxBatchSize.
	BatchSize int
	// MaxLineSize is the longest line read, in bytes; a longer line is
	// rejected. 0 means DefaultMaxLineSize.
	MaxLineSize int
	// MaxNodes is the search budget per puzzle (sudoku.Options.MaxNodes); a
	// puzzle past it is rejected as too hard. 0 means the engine's default.
	MaxNodes int64
	// Reject, when set, is told about every rejected line, in input order,
	// as soon as the line is rated (before its neighbours are committed).
	Reject func(Rejection)
	// Progress, when set, is called from time to time with the running
	// totals, and once more at the end.
	Progress func(Progress)
	// Collection, when not 0, is the collection every puzzle of the import
	// (new or archived already) is filed under; the sink must be a
	// CollectionAdder.
	Collection int64
	// Hidden holds the puzzles moderators have hidden: a line that is a
	// way of writing one is rejected with the reason. Import reads it
	// from a sink that keeps them (a Moderated, store.DB) when it is nil.
	Hidden moderation.HiddenSet

	// rate replaces sudoku.Rate in tests.
	rate func(sudoku.Grid, sudoku.Options) (record.Puzzle, error)
}

// growBatch is the size of the next batch of an import with the default
// Options.BatchSize, once cut puzzles went in batches before it: an eighth
// of cut, rounded down to a multiple of DefaultBatchSize (so that every
// batch boundary is one), within DefaultBatchSize..MaxBatchSize.
func growBatch(cut int) int {
	return min(MaxBatchSize, max(DefaultBatchSize, cut/8/DefaultBatchSize*DefaultBatchSize))
}

// Rejection is one line that was not archived, and why.
type Rejection struct {
	Input string // Input.Name
	Line  int64  // 1-based line number within Input
	Err   error  // the parse, conflict, no-solution or budget error
}

func (r Rejection) Error() string { return fmt.Sprintf("%s:%d: %v", r.Input, r.Line, r.Err) }

// Summary is the account of an import. Imported and Duplicates count only
// committed batches; Rejected counts every line reported to Options.Reject.
type Summary struct {
	Imported   int64 // newly archived puzzles
	Duplicates int64 // puzzles whose givens were archived already
	// Equivalents counts the imported puzzles that are another way of
	// writing a puzzle archived before them (the same canonical form).
	Equivalents int64
	Rejected    int64 // lines that were not puzzles or could not be rated
	Elapsed     time.Duration
}

// String is the summary line docs/storage.md shows.
func (s Summary) String() string {
	return fmt.Sprintf("imported %d, duplicates %d, rejected %d in %.2fs",
		s.Imported, s.Duplicates, s.Rejected, s.Elapsed.Seconds())
}

// Progress is a snapshot of a running import.
type Progress struct {
	Lines     int64 // puzzle lines rated or rejected so far (blank and comment lines not counted)
	Bytes     int64 // input bytes consumed by those lines, over all inputs
	Committed int64 // puzzles in committed batches (Imported + Duplicates)
	Rejected  int64
	Elapsed   time.Duration
}

// ErrLineTooLong is the reason given for a line longer than
// Options.MaxLineSize.
var ErrLineTooLong = errors.New("line too long")

// chunkSize is the number of lines handed to a worker at once: large enough
// that channel traffic is noise next to rating, small enough that every
// worker gets a share of a short file.
const chunkSize = 32

// line is one puzzle line on its way through the pipeline.
type line struct {
	input  int
	no     int64
	text   string
	csvCol int         // the puzzle column when the input is a CSV export, else -1
	csvVar *csvVariant // a CSV export's variant columns, nil for none
	err    error       // set by the reader (ErrLineTooLong)

	p   rated // set by a worker
	bad error // set by a worker: why p could not be rated
}

// chunk is chunkSize lines, the unit of work of the rating stage.
type chunk struct {
	lines []line
	bytes int64 // input bytes consumed up to the end of this chunk
}

// Import reads every input line by line and archives each puzzle line in
// sink. Blank lines and lines whose first non-blank character is '#' are
// skipped; lines end at "\n", "\r\n" or a lone "\r" (ScanLines). Every
// other line is read by puzzletext.ReadLine (text after the 81 cells is
// ignored; a variant's written form, f-puzzles JSON or an f-puzzles or
// SudokuPad link take the whole line), or, so that an export can be
// imported again, as a JSON object with a "puzzle" field (and a variant's
// "rules", "title" and "author") or, after a CSV header row naming a
// "puzzle" column, as a CSV row. Each puzzle is rated by sudoku.Rate on
// Options.Workers goroutines and committed in batches (see
// Options.BatchSize), in input order: a batch's transaction opens only once
// all of its puzzles are rated, so the archive's writer is held for the
// writing alone. A line that cannot be read or rated is rejected and
// reported; the import goes on. Memory stays flat however long the inputs
// are.
//
// When sink is an Adder, a puzzle archived already (or earlier in the
// inputs) is counted as a duplicate and left as it is: running an import a
// second time changes nothing. A plain Sink counts it as one more
// submission.
//
// Import returns when every input is read and every batch committed, or
// when ctx is done or a read or commit fails: then the batches committed so
// far stay, the rest is dropped (re-running the import completes it), and
// the error says why. The summary is valid in both cases.
func Import(ctx context.Context, sink Sink, inputs []Input, opt Options) (Summary, error) {
	if m, ok := sink.(Moderated); ok && opt.Hidden == nil {
		var err error
		if opt.Hidden, err = m.HiddenClasses(ctx); err != nil {
			return Summary{}, err
		}
	}
	im := newImporter(sink, inputs, opt)
	if opt.Collection != 0 {
		ca, ok := sink.(CollectionAdder)
		if !ok {
			return Summary{}, errors.New("import: this archive cannot file puzzles under a collection")
		}
		im.parts = collectionParts{ca, opt.Collection}
	}
	err := im.run(ctx)
	return Summary{
		Imported:    im.imported.Load(),
		Duplicates:  im.duplicates.Load(),
		Equivalents: im.equivalents.Load(),
		Rejected:    im.rejected.Load(),
		Elapsed:     time.Since(im.start),
	}, err
}

// importer is one run of Import, a pipeline of four stages: read (the
// inputs into chunks of lines), rate (on Options.Workers goroutines), order
// (the rated lines back in input order: rejections reported, puzzles cut
// into batches) and write (one transaction per batch, one batch at a time,
// so a puzzle repeated across batches meets its first copy committed).
// Ordered runs the first three; write runs beside them under one errgroup.
type importer struct {
	inputs  []Input
	opt     Options
	add     func(context.Context, []record.Puzzle) ([]bool, error)
	parts   PartAdder // nil when the sink takes whole batches only
	rateFn  func(sudoku.Grid, sudoku.Options) (record.Puzzle, error)
	start   time.Time
	readErr error // the read stage's, returned once the lines before it are in

	// The order stage's own.
	batch     []rated // the batch being filled
	batchSize int
	grow      bool // batchSize grows (Options.BatchSize 0)
	cut       int  // puzzles handed to write so far
	lines     int64
	bytes     int64
	lastProg  time.Time
	free      chan []rated // batches written, for reuse

	imported, duplicates, rejected, equivalents atomic.Int64
}

func newImporter(sink Sink, inputs []Input, opt Options) *importer {
	im := &importer{inputs: inputs, opt: opt, add: sink.SubmitMany, rateFn: opt.rate,
		start: time.Now(), batchSize: opt.BatchSize, free: make(chan []rated, 1)}
	if a, ok := sink.(Adder); ok {
		im.add = a.AddMany
	}
	im.parts, _ = sink.(PartAdder)
	if im.rateFn == nil {
		im.rateFn = record.Rate
	}
	if im.batchSize <= 0 {
		im.batchSize, im.grow = DefaultBatchSize, true
	}
	if im.opt.MaxLineSize <= 0 {
		im.opt.MaxLineSize = DefaultMaxLineSize
	}
	im.batch = make([]rated, 0, min(im.batchSize, DefaultBatchSize))
	return im
}

// run runs the stages until every batch is written or one stage fails.
func (im *importer) run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	batches := make(chan []rated)
	g.Go(func() error { return im.write(ctx, batches) })
	g.Go(func() error {
		defer close(batches)
		order := func(c *chunk) error { return im.order(ctx, c, batches) }
		if err := Ordered(ctx, im.opt.Workers, im.read, im.rate, order); err != nil {
			return err
		}
		return im.cutBatch(ctx, batches) // the last one, partly filled
	})
	err := g.Wait()
	im.progress(true)
	if err == nil {
		err = im.readErr
	}
	return err
}

// read is the first stage: the inputs, in chunks of puzzle lines. A read
// error ends it; the lines read before go through, and Import returns the
// error at the end.
func (im *importer) read(ctx context.Context, send func(*chunk) bool) error {
	im.readErr = readLines(im.inputs, im.opt.MaxLineSize, send)
	return nil
}

// rate is the second stage: it parses and rates the lines of c.
func (im *importer) rate(ctx context.Context, c *chunk) *chunk {
	sopt := sudoku.Options{MaxNodes: im.opt.MaxNodes, Done: ctx.Done()}
	for i := range c.lines {
		l := &c.lines[i]
		if l.err != nil || ctx.Err() != nil {
			continue
		}
		p, err := im.rateLine(l, sopt)
		if err == nil {
			if h := im.opt.Hidden.Of(&p); h != nil {
				err = h
			}
		}
		if err == nil {
			l.p = compact(&p)
		}
		l.bad = err
	}
	return c
}

// order is the third stage, given the chunks in input order: it reports
// the rejected lines and hands full batches to write.
func (im *importer) order(ctx context.Context, c *chunk, batches chan<- []rated) error {
	for i := range c.lines {
		l := &c.lines[i]
		err := l.err
		if err == nil {
			err = l.bad
		}
		switch {
		case errors.Is(err, sudoku.ErrCanceled):
			continue // stopping: the line was not rated
		case err != nil:
			im.rejected.Add(1)
			if im.opt.Reject != nil {
				im.opt.Reject(Rejection{Input: im.inputs[l.input].Name, Line: l.no, Err: err})
			}
			continue
		}
		im.batch = append(im.batch, l.p)
		if len(im.batch) == im.batchSize {
			if err := im.cutBatch(ctx, batches); err != nil {
				return err
			}
		}
	}
	im.lines += int64(len(c.lines))
	im.bytes = c.bytes
	im.progress(false)
	return nil
}

// cutBatch hands the batch filled so far to write, waiting while write
// is busy with the one before, and starts the next.
func (im *importer) cutBatch(ctx context.Context, batches chan<- []rated) error {
	if len(im.batch) == 0 {
		return nil
	}
	select {
	case batches <- im.batch:
	case <-ctx.Done():
		return ctx.Err()
	}
	im.cut += len(im.batch)
	if im.grow {
		im.batchSize = growBatch(im.cut)
	}
	select {
	case b := <-im.free:
		im.batch = b
	default:
		im.batch = make([]rated, 0, min(im.batchSize, DefaultBatchSize))
	}
	return nil
}

// write is the last stage: one transaction per batch.
func (im *importer) write(ctx context.Context, batches <-chan []rated) error {
	var ps []record.Puzzle // a part, or the batch for a sink without AddParts
	for rs := range batches {
		if err := ctx.Err(); err != nil {
			return err // stopped: nothing more is committed
		}
		var d, same int64
		if im.parts != nil {
			dup, eq, err := im.parts.AddParts(ctx, func(yield func([]record.Puzzle) bool) {
				for start := 0; start < len(rs); start += partSize {
					ps = puzzles(ps[:0], rs[start:min(start+partSize, len(rs))])
					if !yield(ps) {
						return
					}
				}
			})
			if err != nil {
				return fmt.Errorf("commit %d puzzles: %w", len(rs), err)
			}
			d, same = int64(dup), int64(eq)
		} else {
			ps = puzzles(ps[:0], rs)
			dup, err := im.add(ctx, ps)
			if err != nil {
				return fmt.Errorf("commit %d puzzles: %w", len(ps), err)
			}
			for i, x := range dup {
				switch {
				case x:
					d++
				case ps[i].SameAs != nil:
					same++
				}
			}
		}
		im.duplicates.Add(d)
		im.equivalents.Add(same)
		im.imported.Add(int64(len(rs)) - d)
		select {
		case im.free <- rs[:0]:
		default:
		}
	}
	return nil
}

// progress calls Options.Progress, at most every 100 ms unless forced.
func (im *importer) progress(force bool) {
	if im.opt.Progress == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(im.lastProg) < 100*time.Millisecond {
		return
	}
	im.lastProg = now
	im.opt.Progress(Progress{
		Lines: im.lines, Bytes: im.bytes,
		Committed: im.imported.Load() + im.duplicates.Load(),
		Rejected:  im.rejected.Load(), Elapsed: now.Sub(im.start),
	})
}

// readLines splits inputs into puzzle lines, skipping blank and comment
// lines, and hands them to send in chunks. It stops early when send
// returns false (the import was stopped). A line longer than maxLine is
// passed on with ErrLineTooLong (its text dropped) and reading goes on
// after it.
//
// A read error stops the reading, but the lines read before it still go
// through: the error is returned after the last chunk is sent.
func readLines(inputs []Input, maxLine int, send func(*chunk) bool) error {
	var (
		total int64
		c     = &chunk{lines: make([]line, 0, chunkSize)}
	)
	flush := func() bool {
		if len(c.lines) == 0 {
			return true
		}
		c.bytes = total
		ok := send(c)
		c = &chunk{lines: make([]line, 0, chunkSize)}
		return ok
	}
	for in, input := range inputs {
		lr := newLineReader(input.Reader, maxLine)
		var no int64
		csvCol := -1
		var csvVar *csvVariant
		first := true // no puzzle line seen yet in this input
		for lr.sc.Scan() {
			no++
			b := lr.sc.Bytes()
			total = lr.total
			l := line{input: in, no: no}
			if lr.tooLong {
				l.err = fmt.Errorf("%w (more than %d bytes)", ErrLineTooLong, maxLine)
			} else if no == 1 {
				b = bytes.TrimPrefix(b, []byte("\uFEFF")) // a byte order mark is no cell
			}
			if l.err == nil && skip(b) {
				continue
			}
			header := false
			if l.err == nil {
				l.text = string(b)
				if first {
					first = false
					csvCol, header = csvHeader(l.text)
					if header {
						csvVar = csvVariantColumns(l.text)
					}
				}
			}
			if header {
				continue
			}
			l.csvCol, l.csvVar = csvCol, csvVar
			c.lines = append(c.lines, l)
			if len(c.lines) == chunkSize && !flush() {
				return nil
			}
		}
		total = lr.total
		if err := lr.sc.Err(); err != nil {
			if !flush() {
				return nil
			}
			return fmt.Errorf("read %s: %w", input.Name, err)
		}
	}
	flush()
	return nil
}

// lineReader splits one input with ScanLines, counting the bytes it
// consumes, and passes a line longer than max on as empty with tooLong set
// instead of stopping there as a bufio.Scanner would.
type lineReader struct {
	sc       *bufio.Scanner
	max      int
	total    int64 // bytes consumed
	skipping bool  // inside a line longer than max
	tooLong  bool  // the last line scanned was longer than max
	afterCR  bool  // the last line ended at a '\r' that ended the buffer
}

func newLineReader(r io.Reader, max int) *lineReader {
	lr := &lineReader{sc: bufio.NewScanner(r), max: max}
	lr.sc.Buffer(make([]byte, 0, min(max, 64<<10)), max)
	lr.sc.Split(lr.split)
	return lr
}

func (lr *lineReader) split(data []byte, atEOF bool) (int, []byte, error) {
	if lr.afterCR && len(data) > 0 {
		lr.afterCR = false
		if data[0] == '\n' { // the rest of a "\r\n"
			lr.total++
			return 1, nil, nil
		}
	}
	if atEOF && len(data) == 0 && lr.skipping {
		// The input ends inside a line too long.
		lr.skipping, lr.tooLong = false, true
		return 0, []byte{}, nil
	}
	adv, tok, err := ScanLines(data, atEOF)
	if n := len(data); adv == 0 && tok == nil && err == nil && n >= lr.max {
		if data[n-1] != '\r' {
			// No line ending within max bytes: drop them, go on looking.
			lr.skipping = true
			lr.total += int64(n)
			return n, nil, nil
		}
		// The line ends at the '\r'; a '\n' after it is part of its end.
		adv, tok, lr.afterCR = n, data[:n-1], true
	}
	lr.total += int64(adv)
	if tok != nil {
		lr.tooLong, lr.skipping = lr.skipping, false
		if lr.tooLong {
			tok = tok[:0]
		}
	}
	return adv, tok, err
}

// csvHeader reports whether s, the first puzzle line of an input, is the
// header row of a CSV file with a "puzzle" column, and which column that is.
// No puzzle line starts with a letter, so a text file is never taken for CSV.
func csvHeader(s string) (col int, ok bool) {
	if s == "" || !('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') || !strings.Contains(s, ",") {
		return -1, false
	}
	rec, err := csv.NewReader(strings.NewReader(s)).Read()
	if err != nil {
		return -1, false
	}
	for i, f := range rec {
		if strings.EqualFold(strings.TrimSpace(f), "puzzle") {
			return i, true
		}
	}
	return -1, false
}

// skip reports whether a line is blank or a comment.
func skip(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n\v\f")
	return len(b) == 0 || b[0] == '#'
}
