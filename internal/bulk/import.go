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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Sink is what Import needs of the archive.
type Sink interface {
	// SubmitMany archives ps in one durable transaction. duplicate[i] is true
	// when ps[i]'s givens were archived before (earlier in ps included); their
	// submission count is bumped instead.
	SubmitMany(ctx context.Context, ps []sudoku.Puzzle) (duplicate []bool, err error)
}

// A Batcher is a Sink that can also take one transaction in parts
// (store.DB.Begin). Import then hands each batch over part by part as the
// puzzles are rated, instead of holding a whole batch before it is written:
// memory stays small with large batches, and the writing of a batch overlaps
// its rating.
type Batcher interface {
	Sink
	BeginBatch(ctx context.Context) (BatchTx, error)
}

// BatchesOf makes a Batcher of sink and its method that opens a
// transaction (store.DB and its Begin).
func BatchesOf[T BatchTx](sink Sink, begin func(context.Context) (T, error)) Batcher {
	return batcherOf[T]{sink, begin}
}

type batcherOf[T BatchTx] struct {
	Sink
	begin func(context.Context) (T, error)
}

func (b batcherOf[T]) BeginBatch(ctx context.Context) (BatchTx, error) {
	tx, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// A BatchTx is one open transaction of a Batcher.
type BatchTx interface {
	// Add stores ps in the transaction, or queues a copy of it. An error
	// ends the transaction.
	Add(ps []sudoku.Puzzle) error
	// Commit makes the transaction durable and returns how many of its
	// puzzles were duplicates (archived before, or earlier in it).
	Commit() (duplicates int, err error)
	// Rollback drops it.
	Rollback()
}

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
// batches write less per puzzle: for a million puzzles, 16,384 instead of
// 4,096 was 28% faster, and 65,536 instead of 32,768 another 6%. A Batcher
// takes a batch in parts, so its size costs no memory (a plain Sink holds
// it whole: 296 bytes a puzzle). But the last batch commits after the last
// puzzle is rated, with nothing left to overlap it: so a batch is at most
// an eighth of what the import cut before it (see growBatch), and a short
// file such as the 17-clue list (49,158 puzzles) goes in batches of
// DefaultBatchSize.
const MaxBatchSize = 16 * DefaultBatchSize

// partSize is how many puzzles at most Import hands a Batcher at once, and
// partsAhead how many rated parts may wait for the writer: enough for the
// rating to go on while a batch commits (its sync and checkpoint take a few
// hundred milliseconds in a million-puzzle archive), little memory (10
// parts of 2,048 are 6 MB). On this 2-core machine 1 or 8 measured the
// same, within the noise; more room costs nothing.
const (
	partSize   = 2048
	partsAhead = 8
)

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

	// rate replaces sudoku.Rate in tests.
	rate func(sudoku.Grid, sudoku.Options) (sudoku.Puzzle, error)
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
	Rejected   int64 // lines that were not puzzles or could not be rated
	Elapsed    time.Duration
}

// String is the contract's summary line.
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
	csvCol int   // the puzzle column when the input is a CSV export, else -1
	err    error // set by the reader (ErrLineTooLong)

	p   sudoku.Puzzle // set by a worker
	bad error         // set by a worker: why p could not be rated
}

type chunk struct {
	seq   int64
	lines []line
	bytes int64 // input bytes consumed up to the end of this chunk
}

// Import reads every input line by line and archives each puzzle line in
// sink. Blank lines and lines whose first non-blank character is '#' are
// skipped; every other line is read by sudoku.ParseLine (text after the
// 81 cells is ignored), or, so that an export can be imported again, as a
// JSON object with a "puzzle" field or, after a CSV header row naming a
// "puzzle" column, as a CSV row. Each puzzle is rated by sudoku.Rate on
// Options.Workers goroutines and committed through SubmitMany in batches (see
// Options.BatchSize), in input order. A line that cannot be read or rated is rejected and reported; the
// import goes on. Memory stays flat however long the inputs are.
//
// Import returns when every input is read and every batch committed, or
// when ctx is done or a read or commit fails: then the batches committed so
// far stay, the rest is dropped (re-running the import completes it; the
// puzzles already archived come back as duplicates), and the error says why.
// The summary is valid in both cases.
func Import(ctx context.Context, sink Sink, inputs []Input, opt Options) (Summary, error) {
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batchSize, grow := opt.BatchSize, opt.BatchSize <= 0
	if grow {
		batchSize = DefaultBatchSize
	}
	maxLine := opt.MaxLineSize
	if maxLine <= 0 {
		maxLine = DefaultMaxLineSize
	}
	rate := opt.rate
	if rate == nil {
		rate = sudoku.Rate
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	var (
		imported, duplicates, rejected atomic.Int64
		readErr                        error
	)

	// Chunks in flight are bounded by tokens: the reader takes one before it
	// sends a chunk, the orderer gives it back once the chunk is through. So
	// the reorder buffer, the channels and the workers together never hold
	// more than inflight chunks, however slow one puzzle is.
	inflight := workers * 4
	tokens := make(chan struct{}, inflight)
	work := make(chan *chunk, inflight)
	rated := make(chan *chunk, inflight)
	// The orderer cuts the rated puzzles into batches, and hands each
	// batch to the writer in parts: the whole batch at once to a plain
	// Sink, parts of partSize to a Batcher. The writer stores one part while
	// the orderer fills the next; a full part waits for the writer rather
	// than queueing, and the writer hands each part's memory back through
	// free. So an import holds two parts however long it runs.
	parts := make(chan part)
	free := make(chan []sudoku.Puzzle, 1)
	batcher, _ := sink.(Batcher)
	if batcher != nil {
		parts = make(chan part, partsAhead)
		free = make(chan []sudoku.Puzzle, partsAhead+1)
	}
	partLimit := func(batchSize int) int { return batchSize }
	if batcher != nil {
		partLimit = func(batchSize int) int { return min(batchSize, partSize) }
	}

	// Reader: inputs -> chunks of puzzle lines.
	go func() {
		defer close(work)
		readErr = readLines(inputs, maxLine, func(c *chunk) bool {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			work <- c
			return true
		})
	}()

	// Workers: parse and rate.
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sopt := sudoku.Options{MaxNodes: opt.MaxNodes, Done: ctx.Done()}
			for c := range work {
				for i := range c.lines {
					l := &c.lines[i]
					if l.err != nil || ctx.Err() != nil {
						continue
					}
					g, err := l.grid()
					if err == nil && g.Clues() == 0 {
						err = sudoku.ErrNoGivens
					}
					if err == nil {
						l.p, err = rate(g, sopt)
					}
					l.bad = err
				}
				rated <- c
			}
		}()
	}
	go func() { wg.Wait(); close(rated) }()

	// Writer: one transaction per batch, one batch at a time, so a puzzle
	// repeated across batches meets its first copy already committed.
	var writeErr error
	written := make(chan struct{})
	go func() {
		defer close(written)
		w := batchWriter{ctx: ctx, sink: sink, batcher: batcher}
		for pt := range parts {
			if ctx.Err() != nil {
				continue // drain: nothing more is committed once stopped
			}
			if err := w.add(pt); err != nil {
				writeErr = err
				cancel(writeErr)
				continue
			}
			if pt.last {
				imported.Add(w.imported)
				duplicates.Add(w.duplicates)
				w.imported, w.duplicates = 0, 0
			}
			if batcher != nil {
				select {
				case free <- pt.ps[:0]:
				default:
				}
			}
		}
		w.abort()
	}()

	// Orderer (this goroutine): put chunks back in input order, report
	// rejections, cut batches.
	var (
		pending  = map[int64]*chunk{}
		next     int64
		lines    int64
		bytes    int64
		batch    = make([]sudoku.Puzzle, 0, partLimit(batchSize))
		inBatch  int // puzzles of the current batch sent in parts before batch
		cut      int // puzzles sent in whole batches so far
		lastProg time.Time
	)
	progress := func(force bool) {
		if opt.Progress == nil {
			return
		}
		now := time.Now()
		if !force && now.Sub(lastProg) < 100*time.Millisecond {
			return
		}
		lastProg = now
		opt.Progress(Progress{
			Lines: lines, Bytes: bytes,
			Committed: imported.Load() + duplicates.Load(),
			Rejected:  rejected.Load(), Elapsed: now.Sub(start),
		})
	}
	for c := range rated {
		pending[c.seq] = c
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-tokens
			if ctx.Err() != nil {
				continue // stopped: drain without reporting or committing
			}
			for i := range c.lines {
				l := &c.lines[i]
				err := l.err
				if err == nil {
					err = l.bad
				}
				if errors.Is(err, sudoku.ErrCanceled) {
					continue
				}
				if err != nil {
					rejected.Add(1)
					if opt.Reject != nil {
						opt.Reject(Rejection{Input: inputs[l.input].Name, Line: l.no, Err: err})
					}
					continue
				}
				batch = append(batch, l.p)
				if inBatch+len(batch) == batchSize || len(batch) == partLimit(batchSize) {
					last := inBatch+len(batch) == batchSize
					parts <- part{batch, last}
					inBatch += len(batch)
					if last {
						if cut += inBatch; grow {
							batchSize = growBatch(cut)
						}
						inBatch = 0
					}
					batch = nil
					select {
					case b := <-free:
						if cap(b) >= partLimit(batchSize) {
							batch = b
						}
					default:
					}
					if batch == nil {
						batch = make([]sudoku.Puzzle, 0, partLimit(batchSize))
					}
				}
			}
			lines += int64(len(c.lines))
			bytes = c.bytes
			progress(false)
		}
	}
	if (len(batch) > 0 || inBatch > 0) && ctx.Err() == nil {
		parts <- part{batch, true}
	}
	close(parts)
	<-written
	progress(true)

	sum := Summary{
		Imported: imported.Load(), Duplicates: duplicates.Load(), Rejected: rejected.Load(),
		Elapsed: time.Since(start),
	}
	switch {
	case writeErr != nil:
		return sum, writeErr
	case readErr != nil:
		return sum, readErr
	case ctx.Err() != nil:
		return sum, context.Cause(ctx)
	}
	return sum, nil
}

// A part is some of the puzzles of a batch, in order; last ends the batch.
type part struct {
	ps   []sudoku.Puzzle
	last bool
}

// batchWriter commits the parts of batches through a Sink: each batch by
// one SubmitMany, or by one transaction of a Batcher, part by part.
type batchWriter struct {
	ctx     context.Context
	sink    Sink
	batcher Batcher
	tx      BatchTx // the Batcher's open transaction
	n       int     // puzzles in tx

	imported, duplicates int64 // of the batch, once committed
}

// add writes pt and, when it ends a batch, commits the batch. On an error
// the batch is dropped.
func (w *batchWriter) add(pt part) error {
	if w.batcher == nil {
		dup, err := w.sink.SubmitMany(w.ctx, pt.ps)
		if err != nil {
			return fmt.Errorf("commit %d puzzles: %w", len(pt.ps), err)
		}
		for _, x := range dup {
			if x {
				w.duplicates++
			}
		}
		w.imported = int64(len(pt.ps)) - w.duplicates
		return nil
	}
	if w.tx == nil {
		tx, err := w.batcher.BeginBatch(w.ctx)
		if err != nil {
			return fmt.Errorf("begin a batch: %w", err)
		}
		w.tx, w.n = tx, 0
	}
	err := w.tx.Add(pt.ps)
	w.n += len(pt.ps)
	if err == nil && pt.last {
		var d int
		d, err = w.tx.Commit()
		w.tx = nil
		w.duplicates = int64(d)
		w.imported = int64(w.n) - w.duplicates
	}
	if err != nil {
		w.abort()
		w.duplicates = 0
		return fmt.Errorf("commit %d puzzles: %w", w.n, err)
	}
	return nil
}

// abort rolls back a batch left open.
func (w *batchWriter) abort() {
	if w.tx != nil {
		w.tx.Rollback()
		w.tx = nil
	}
}

// readLines splits inputs into puzzle lines, skipping blank and comment
// lines, and hands them to send in chunks numbered from 0. It stops early
// when send returns false (the import was stopped). A line longer than maxLine is passed on with
// ErrLineTooLong (its text dropped) and reading goes on after it.
//
// A read error stops the reading, but the lines read before it still go
// through: the error is returned after the last chunk is sent.
func readLines(inputs []Input, maxLine int, send func(*chunk) bool) error {
	var (
		seq   int64
		total int64
		c     = &chunk{lines: make([]line, 0, chunkSize)}
	)
	flush := func() bool {
		if len(c.lines) == 0 {
			return true
		}
		c.seq, c.bytes = seq, total
		seq++
		ok := send(c)
		c = &chunk{lines: make([]line, 0, chunkSize)}
		return ok
	}
	for in, input := range inputs {
		br := bufio.NewReaderSize(input.Reader, maxLine)
		var no int64
		csvCol := -1
		first := true // no puzzle line seen yet in this input
		for {
			b, err := br.ReadSlice('\n')
			total += int64(len(b))
			tooLong := false
			for errors.Is(err, bufio.ErrBufferFull) {
				tooLong = true
				var more []byte
				more, err = br.ReadSlice('\n')
				total += int64(len(more))
			}
			if len(b) > 0 || tooLong {
				no++
				l := line{input: in, no: no}
				if tooLong {
					l.err = fmt.Errorf("%w (more than %d bytes)", ErrLineTooLong, maxLine)
				} else if no == 1 {
					b = bytes.TrimPrefix(b, []byte("\uFEFF")) // a byte order mark is no cell
				}
				if l.err != nil || !skip(b) {
					if !tooLong {
						l.text = string(trimEOL(b))
					}
					header := false
					if first && !tooLong {
						first = false
						csvCol, header = csvHeader(l.text)
					}
					if !header {
						l.csvCol = csvCol
						c.lines = append(c.lines, l)
						if len(c.lines) == chunkSize && !flush() {
							return nil
						}
					}
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				if !flush() {
					return nil
				}
				return fmt.Errorf("read %s: %w", input.Name, err)
			}
		}
	}
	flush()
	return nil
}

// grid reads the puzzle of a line: the line itself, or the "puzzle" field
// of a JSON object (a JSON export) or of a CSV row (a CSV export).
func (l *line) grid() (sudoku.Grid, error) {
	if l.csvCol >= 0 {
		rec, err := csv.NewReader(strings.NewReader(l.text)).Read()
		if err != nil {
			return sudoku.Grid{}, fmt.Errorf("csv row: %w", err)
		}
		if l.csvCol >= len(rec) {
			return sudoku.Grid{}, fmt.Errorf("csv row has %d fields, no puzzle column", len(rec))
		}
		return sudoku.Parse(rec[l.csvCol])
	}
	if t := strings.TrimLeft(l.text, " \t"); strings.HasPrefix(t, "{") {
		var v struct {
			Puzzle *string `json:"puzzle"`
		}
		if err := json.Unmarshal([]byte(t), &v); err != nil {
			return sudoku.Grid{}, fmt.Errorf("json object: %w", err)
		}
		if v.Puzzle == nil {
			return sudoku.Grid{}, errors.New(`json object has no "puzzle" field`)
		}
		return sudoku.Parse(*v.Puzzle)
	}
	return sudoku.ParseLine(l.text)
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

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
