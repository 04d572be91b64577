package bulk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// rejected collects rejections as "NAME:LINE: kind" for comparison.
type rejected struct{ lines []string }

func (r *rejected) add(x Rejection) {
	r.lines = append(r.lines, fmt.Sprintf("%s:%d: %s", x.Input, x.Line, kind(x.Err)))
}

// kind names the class of a rejection reason, so tests do not depend on the
// engine's exact wording beyond docs/storage.md's.
func kind(err error) string {
	var pe *sudoku.ParseError
	var ce *sudoku.ConflictError
	switch {
	case errors.As(err, &pe) && pe.Pos > 0:
		return fmt.Sprintf("char %q at %d", pe.Char, pe.Pos)
	case errors.As(err, &pe):
		return fmt.Sprintf("count %d", pe.Got)
	case errors.As(err, &ce):
		return ce.Error()
	case errors.Is(err, sudoku.ErrNoSolution):
		return "no solution"
	case errors.Is(err, sudoku.ErrBudget):
		return "too hard"
	case errors.Is(err, record.ErrNoGivens):
		return "no givens"
	case errors.Is(err, ErrLineTooLong):
		return "too long"
	}
	return "other: " + err.Error()
}

func open(t *testing.T, name string) Input {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: filepath.Base(name), Reader: bytes.NewReader(b)}
}

func TestImportEveryKindOfLine(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			a := newFakeArchive()
			var rej rejected
			sum, err := Import(context.Background(), a, []Input{open(t, "testdata/mixed.txt")},
				Options{Workers: workers, BatchSize: 2, Reject: rej.add})
			if err != nil {
				t.Fatal(err)
			}
			got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}
			if want := [3]int64{3, 3, 5}; got != want {
				t.Errorf("imported, duplicates, rejected = %v, want %v", got, want)
			}
			want := []string{
				"mixed.txt:7: count 80",
				"mixed.txt:8: count 82",
				"mixed.txt:9: char 'x' at 12",
				"mixed.txt:10: row 1 has two 5s",
				"mixed.txt:11: no solution",
			}
			if diff := cmp.Diff(want, rej.lines); diff != "" {
				t.Errorf("rejections (-want +got):\n%s", diff)
			}
			// Committed in input order; an import counts no submission
			// for a repeat.
			var order []string
			for _, p := range a.puzzles {
				order = append(order, fmt.Sprintf("%s %d", p.Givens.String()[:9], p.Submissions))
			}
			if diff := cmp.Diff([]string{"53..7.... 1", "..3.2.6.. 1", "2...8.3.. 1"}, order); diff != "" {
				t.Errorf("archive (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]int{2, 2, 2}, a.batches); diff != "" {
				t.Errorf("batch sizes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestImportEmptyGrid: a line of 81 blanks is a rejected line like any
// other; it must not fail the batch it would have been committed in.
func TestImportEmptyGrid(t *testing.T) {
	a := newFakeArchive()
	var rej rejected
	body := strings.Repeat(".", 81) + "\n" + "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
	sum, err := Import(context.Background(), a, []Input{{Name: "e.txt", Reader: strings.NewReader(body)}}, Options{Reject: rej.add})
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}; got != [3]int64{1, 0, 1} {
		t.Errorf("imported, duplicates, rejected = %v, want [1 0 1]", got)
	}
	if diff := cmp.Diff([]string{"e.txt:1: no givens"}, rej.lines); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
}

func TestImportMeasures(t *testing.T) {
	a := newFakeArchive()
	in := "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
	if _, err := Import(context.Background(), a, []Input{{"-", strings.NewReader(in)}}, Options{}); err != nil {
		t.Fatal(err)
	}
	g, _ := sudoku.Parse(in)
	want, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := a.puzzles[0]
	if got.Solution != want.Solution || got.Backtracks != want.Backtracks || got.Guesses != want.Guesses ||
		got.Nodes != want.Nodes || got.Clues != want.Clues || !got.Unique || got.SolveNS <= 0 ||
		got.EngineVersion != sudoku.EngineVersion {
		t.Errorf("archived %+v, want the measures of %+v", got, want)
	}
}

func TestImportLines(t *testing.T) {
	easy := "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	tests := []struct {
		name    string
		in      string
		maxLine int
		want    [3]int64
		rej     []string
	}{
		{"empty", "", 0, [3]int64{0, 0, 0}, nil},
		{"only comments", "# a\n\n  #b\n", 0, [3]int64{0, 0, 0}, nil},
		{"no final newline", easy, 0, [3]int64{1, 0, 0}, nil},
		{"crlf", "# x\r\n" + easy + "\r\n\r\n" + easy + "\r\n", 0, [3]int64{1, 1, 0}, nil},
		{"byte order mark", "\uFEFF" + easy + "\n", 0, [3]int64{1, 0, 0}, nil},
		{"too long, then good", strings.Repeat("1", 300) + "\n" + easy + "\n", 128, [3]int64{1, 0, 1},
			[]string{"-:1: too long"}},
		{"too long at the end", easy + "\n" + easy + strings.Repeat(" ", 200), 128, [3]int64{1, 0, 1},
			[]string{"-:2: too long"}},
		{"longest line that fits", easy + strings.Repeat(" ", 127-81) + "\n", 128, [3]int64{1, 0, 0}, nil},
		{"one byte more", easy + strings.Repeat(" ", 128-81) + "\n", 128, [3]int64{0, 0, 1},
			[]string{"-:1: too long"}},
		{"text glued to the cells", easy + "x\n", 0, [3]int64{0, 0, 1}, []string{"-:1: char 'x' at 82"}},
		{"binary", "\x00\xff\n", 0, [3]int64{0, 0, 1}, []string{"-:1: char '\\x00' at 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rej rejected
			sum, err := Import(context.Background(), newFakeArchive(), []Input{{"-", strings.NewReader(tc.in)}},
				Options{MaxLineSize: tc.maxLine, Reject: rej.add})
			if err != nil {
				t.Fatal(err)
			}
			if got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}; got != tc.want {
				t.Errorf("imported, duplicates, rejected = %v, want %v", got, tc.want)
			}
			if diff := cmp.Diff(tc.rej, rej.lines); diff != "" {
				t.Errorf("rejections (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportTooHard(t *testing.T) {
	hard := "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
	var rej rejected
	sum, err := Import(context.Background(), newFakeArchive(), []Input{{"hard", strings.NewReader(hard + "\n")}},
		Options{MaxNodes: 20, Reject: rej.add})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rejected != 1 || sum.Imported != 0 {
		t.Errorf("summary %v, want one rejection", sum)
	}
	if diff := cmp.Diff([]string{"hard:1: too hard"}, rej.lines); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
}

// TestImportSeveralInputs checks that line numbers restart per input and
// that a puzzle repeated across inputs is a duplicate.
func TestImportSeveralInputs(t *testing.T) {
	easy := "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
	var rej rejected
	sum, err := Import(context.Background(), newFakeArchive(), []Input{
		{"a", strings.NewReader(easy + "bad\n")},
		{"b", strings.NewReader("# c\nbad\n" + easy)},
	}, Options{Reject: rej.add})
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}; got != [3]int64{1, 1, 2} {
		t.Errorf("imported, duplicates, rejected = %v, want [1 1 2]", got)
	}
	if diff := cmp.Diff([]string{"a:2: char 'b' at 1", "b:2: char 'b' at 1"}, rej.lines); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
}

// collection reads up to n puzzles of a standard collection as one text.
func collection(t testing.TB, name string, n int) (string, []string) {
	t.Helper()
	ps := puzzletest.Lines(t, name, n)
	return strings.Join(ps, "\n") + "\n", ps
}

// TestImportInterrupted stops an import after two committed batches, checks
// that only whole batches were archived and counted, then runs the same
// import again and checks that it completes with nothing doubled.
func TestImportInterrupted(t *testing.T) {
	text, ps := collection(t, puzzletest.Kaggle, 1000)
	const batch = 100
	a := newFakeArchive()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.beforeCommit = func(_ context.Context, committed int) error {
		if committed == 2 {
			cancel() // Ctrl-C while the third batch is on its way in
		}
		return nil
	}
	sum, err := Import(ctx, a, []Input{{"17", strings.NewReader(text)}}, Options{BatchSize: batch})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted import: err = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]int{batch, batch}, a.batches); diff != "" {
		t.Errorf("committed batches (-want +got):\n%s", diff)
	}
	if sum.Imported != 2*batch || sum.Duplicates != 0 || sum.Rejected != 0 {
		t.Errorf("interrupted summary %v, want exactly the two committed batches", sum)
	}
	for i, p := range a.puzzles {
		if p.Givens.String() != ps[i] {
			t.Fatalf("archive[%d] = %s, want input line %d", i, p.Givens, i+1)
		}
	}

	a.beforeCommit = nil
	sum, err = Import(context.Background(), a, []Input{{"17", strings.NewReader(text)}}, Options{BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}; got != [3]int64{1000 - 2*batch, 2 * batch, 0} {
		t.Errorf("re-run: imported, duplicates, rejected = %v, want [800 200 0]", got)
	}
	if len(a.puzzles) != 1000 {
		t.Errorf("archive holds %d puzzles, want 1000", len(a.puzzles))
	}
}

func TestImportCommitFails(t *testing.T) {
	text, _ := collection(t, puzzletest.Kaggle, 300)
	a := newFakeArchive()
	a.beforeCommit = func(_ context.Context, committed int) error {
		if committed == 1 {
			return errFakeDown
		}
		return nil
	}
	sum, err := Import(context.Background(), a, []Input{{"17", strings.NewReader(text)}}, Options{BatchSize: 100})
	if !errors.Is(err, errFakeDown) {
		t.Fatalf("err = %v, want the archive's error", err)
	}
	if sum.Imported != 100 || len(a.puzzles) != 100 {
		t.Errorf("summary %v with %d archived, want the one batch committed before the failure", sum, len(a.puzzles))
	}
}

// TestImportReadFails checks that the lines read before a read error are
// still committed, and the error returned.
func TestImportReadFails(t *testing.T) {
	text, _ := collection(t, puzzletest.Norvig, 10)
	r := iotest.TimeoutReader(iotest.HalfReader(strings.NewReader(text)))
	// HalfReader gives half of what is asked, so the first read holds some
	// lines; TimeoutReader fails the second read.
	a := newFakeArchive()
	sum, err := Import(context.Background(), a, []Input{{"slow", r}}, Options{MaxLineSize: 512})
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Fatalf("err = %v, want the read error", err)
	}
	if sum.Imported == 0 || sum.Imported != int64(len(a.puzzles)) {
		t.Errorf("summary %v with %d archived, want the lines read before the error committed", sum, len(a.puzzles))
	}
}

func TestImportProgress(t *testing.T) {
	text, ps := collection(t, puzzletest.Norvig, 50)
	var last Progress
	calls := 0
	_, err := Import(context.Background(), newFakeArchive(), []Input{{"n", strings.NewReader(text)}},
		Options{Progress: func(p Progress) { last = p; calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last.Lines != int64(len(ps)) || last.Bytes != int64(len(text)) || last.Committed != 50 {
		t.Errorf("last progress %+v after %d calls, want all %d lines, %d bytes, 50 committed", last, calls, len(ps), len(text))
	}
}

// TestImportBatchesGrow checks the batch sizes of an import with the default
// Options.BatchSize: DefaultBatchSize until the import has cut 8 times
// more, then growing in steps of DefaultBatchSize up to MaxBatchSize; and
// that an explicit BatchSize stays fixed.
//
// 200,000 lines one import at a time: the batch schedule is what is under
// test, so it runs in make test's pass without -race (178 s under it); the
// import pipeline's concurrency is the other import tests', under it.
func TestImportBatchesGrow(t *testing.T) {
	racefree.Only(t)
	gs, err := loadCollections(puzzletest.SeventeenClue)
	if err != nil {
		t.Fatal(err)
	}
	n := 200_000
	var text bytes.Buffer
	if _, err := writeTransformedFrom(&text, n, 3, gs); err != nil {
		t.Fatal(err)
	}
	// Rating is not under test: a stand-in keeps the test fast.
	rate := func(g sudoku.Grid, _ sudoku.Options) (record.Puzzle, error) {
		return record.Puzzle{Givens: g, Solutions: 1}, nil
	}
	for _, tt := range []struct {
		batchSize int
		want      []int
	}{
		{0, slices.Concat(
			slices.Repeat([]int{4096}, 16), // up to 65,536
			slices.Repeat([]int{8192}, 4),  // up to 98,304
			slices.Repeat([]int{12288}, 3), // up to 135,168
			slices.Repeat([]int{16384}, 2), // up to 167,936
			[]int{20480},                   // up to 188,416
			[]int{n - 188_416})},
		{30000, append(slices.Repeat([]int{30000}, 6), n-180_000)},
	} {
		t.Run(fmt.Sprint(tt.batchSize), func(t *testing.T) {
			a := newFakeArchive()
			sum, err := Import(context.Background(), a, []Input{{"t", bytes.NewReader(text.Bytes())}}, Options{BatchSize: tt.batchSize, rate: rate})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Imported != int64(n) {
				t.Errorf("imported %d, want %d", sum.Imported, n)
			}
			if d := cmp.Diff(tt.want, a.batches); d != "" {
				t.Errorf("batch sizes (-want +got):\n%s", d)
			}
		})
	}
}

// TestImportPlainSinkCounts: a Sink that is no Adder (the web server's
// fakes) has every repeat counted as a submission.
func TestImportPlainSinkCounts(t *testing.T) {
	a := newFakeArchive()
	if _, err := Import(context.Background(), submitter{a}, []Input{open(t, "testdata/mixed.txt")}, Options{BatchSize: 2}); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range a.puzzles {
		order = append(order, fmt.Sprintf("%s %d", p.Givens.String()[:9], p.Submissions))
	}
	if diff := cmp.Diff([]string{"53..7.... 3", "..3.2.6.. 1", "2...8.3.. 2"}, order); diff != "" {
		t.Errorf("archive (-want +got):\n%s", diff)
	}
}

// TestImportLineEndings: Unix, Windows and old Mac line endings read alike.
func TestImportLineEndings(t *testing.T) {
	_, ps := collection(t, puzzletest.Norvig, 5)
	for name, eol := range map[string]string{"unix": "\n", "windows": "\r\n", "old mac": "\r"} {
		t.Run(name, func(t *testing.T) {
			a := newFakeArchive()
			text := "# five puzzles" + eol + strings.Join(ps, eol) + eol
			sum, err := Import(context.Background(), a, []Input{{"e", strings.NewReader(text)}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Imported != 5 || sum.Rejected != 0 {
				t.Errorf("summary %v, want 5 imported, none rejected", sum)
			}
		})
	}
}
