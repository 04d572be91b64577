package bulk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// DefaultTextChunk is how many lines of a text ImportText rates in one
// turn (TextOptions.Slot): a few hundred milliseconds of the hardest
// puzzles, so an import shares a server's search gate fairly with single
// submissions and other imports.
const DefaultTextChunk = 256

// TextOptions tune ImportText. The zero value is usable.
type TextOptions struct {
	// MaxNodes is the search budget per puzzle, as in Options.
	MaxNodes int64
	// Slot runs fn, the rating of one chunk of lines, in a turn of the
	// caller's search gate; nil runs it at once.
	Slot func(ctx context.Context, fn func() error) error
	// Chunk is how many lines are rated in one turn; 0 means
	// DefaultTextChunk.
	Chunk int

	hidden moderation.HiddenSet // read from a Moderated sink
}

// ImportText archives body, a text held in memory (a web upload, a batch),
// with the rules of Import (it is Import that reads and rates each line),
// all in one transaction of sink: on success every counted puzzle is
// committed, on error none is. It returns the summary and every rejected
// line, in order.
//
// Rating is the expensive part, so it is bounded: lines that repeat an
// earlier line's puzzle are not rated again (they count as duplicates, or
// share the earlier line's rejection), and the rest are rated Chunk lines at
// a time, each chunk in a turn of Slot, on one core.
func ImportText(ctx context.Context, sink Sink, name string, body []byte, opt TextOptions) (Summary, []Rejection, error) {
	start := time.Now()
	if opt.Chunk <= 0 {
		opt.Chunk = DefaultTextChunk
	}
	t := newTextImport(name, body)
	if m, ok := sink.(Moderated); ok {
		var err error
		if opt.hidden, err = m.HiddenClasses(ctx); err != nil {
			return Summary{}, nil, err
		}
	}
	for from := 0; from < len(t.lines); from += opt.Chunk {
		if err := t.rateChunk(ctx, from, min(from+opt.Chunk, len(t.lines)), opt); err != nil {
			return Summary{}, nil, err
		}
	}
	ps, rejected := t.results()
	sum := Summary{Rejected: int64(len(rejected))}
	if len(ps) > 0 {
		dups, err := sink.SubmitMany(ctx, ps)
		if err != nil {
			return Summary{}, nil, err
		}
		for i, d := range dups {
			switch {
			case d:
				sum.Duplicates++
			case ps[i].SameAs != nil:
				sum.Equivalents++
				sum.Imported++
			default:
				sum.Imported++
			}
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, rejected, nil
}

// textImport is one ImportText: the lines, what was rated of them and what
// was rejected, by line index.
type textImport struct {
	name   string
	lines  []string
	header string      // a CSV export's header row, put in front of every chunk; "" for none
	dupOf  map[int]int // line index -> index of the first line with its puzzle
	rated  map[int]record.Puzzle
	failed map[int]error
}

// newTextImport splits body into lines, finds a CSV header (Import's own
// csvHeader) and the lines that repeat an earlier one.
func newTextImport(name string, body []byte) *textImport {
	t := &textImport{name: name, lines: Lines(body), dupOf: map[int]int{},
		rated: map[int]record.Puzzle{}, failed: map[int]error{}}
	if len(t.lines) > 0 {
		t.lines[0] = strings.TrimPrefix(t.lines[0], "\uFEFF")
	}
	for i, l := range t.lines {
		if Skipped(l) {
			continue
		}
		if _, ok := csvHeader(l); ok {
			t.header, t.lines[i] = l, ""
		}
		break
	}
	firstOf := make(map[string]int)
	for i, l := range t.lines {
		if Skipped(l) {
			continue
		}
		key := "t:" + strings.TrimSpace(l)
		if t.header == "" && !strings.HasPrefix(strings.TrimSpace(l), "{") {
			if g, err := sudoku.ParseLine(l); err == nil {
				key = "g:" + g.String()
			}
		}
		if j, ok := firstOf[key]; ok {
			t.dupOf[i] = j
		} else {
			firstOf[key] = i
		}
	}
	return t
}

// collector is a Sink that keeps what Import rates instead of storing it:
// ImportText stores the whole text in one transaction.
type collector struct{ ps []record.Puzzle }

func (k *collector) SubmitMany(_ context.Context, ps []record.Puzzle) ([]bool, error) {
	k.ps = append(k.ps, ps...)
	return make([]bool, len(ps)), nil
}

// rateChunk rates lines [from, to) that are neither skipped nor repeats,
// through Import, in one turn of opt.Slot.
func (t *textImport) rateChunk(ctx context.Context, from, to int, opt TextOptions) error {
	var text strings.Builder
	offset := from // chunk line k (1-based) is lines[offset+k-1]
	if t.header != "" {
		text.WriteString(t.header + "\n")
		offset--
	}
	var want []int // indexes of the lines Import rates, in order
	for i := from; i < to; i++ {
		if _, dup := t.dupOf[i]; !dup && !Skipped(t.lines[i]) {
			text.WriteString(t.lines[i])
			want = append(want, i)
		}
		text.WriteByte('\n')
	}
	if len(want) == 0 {
		return nil
	}
	var k collector
	var rej []Rejection
	run := func() error {
		_, err := Import(ctx, &k, []Input{{Name: t.name, Reader: strings.NewReader(text.String())}}, Options{
			Workers: 1, BatchSize: opt.Chunk + 1, MaxNodes: opt.MaxNodes, Hidden: opt.hidden,
			Reject: func(r Rejection) { rej = append(rej, r) },
		})
		return err
	}
	var err error
	if opt.Slot == nil {
		err = run()
	} else {
		err = opt.Slot(ctx, run)
	}
	if err != nil {
		return err
	}
	for _, r := range rej {
		t.failed[offset+int(r.Line)-1] = r.Err
	}
	n := 0
	for _, i := range want {
		if _, bad := t.failed[i]; bad {
			continue
		}
		if n == len(k.ps) {
			return fmt.Errorf("import of lines %d-%d: %d puzzles rated, more lines accepted", from+1, to, len(k.ps))
		}
		t.rated[i] = k.ps[n]
		n++
	}
	return nil
}

// results returns the puzzles to store, in line order (a repeat stands
// for its first line's puzzle), and every rejected line.
func (t *textImport) results() ([]record.Puzzle, []Rejection) {
	var (
		ps       []record.Puzzle
		rejected []Rejection
	)
	for i := range t.lines {
		j, dup := t.dupOf[i]
		if !dup {
			j = i
		}
		if p, ok := t.rated[j]; ok {
			ps = append(ps, p)
		} else if err, ok := t.failed[j]; ok {
			rejected = append(rejected, Rejection{Input: t.name, Line: int64(i + 1), Err: err})
		}
	}
	return ps, rejected
}
