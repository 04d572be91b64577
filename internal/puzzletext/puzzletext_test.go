package puzzletext

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// xSudoku is a diagonal puzzle of the variant engine's test set
// (internal/variant/testdata/puzzles.txt, CC0).
const xSudoku = `{"givens":"....8......9..2..3...3....5.6.9...14..78.6....3.....6..........2.8....37.9..47...","rules":[{"type":"diagonal+"}]}`

func mustParse(t *testing.T, text string) variant.Puzzle {
	t.Helper()
	p, err := variant.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadForms: the same puzzle in every form reads to the same givens
// and rules, the title and author kept where the form carries them.
func TestReadForms(t *testing.T) {
	want := mustParse(t, xSudoku)
	fp := fpuzzles.Puzzle{Puzzle: want, Title: "Cross", Author: "Ann"}
	js, err := fpuzzles.Write(fp)
	if err != nil {
		t.Fatal(err)
	}
	link, err := fpuzzles.Link(fp)
	if err != nil {
		t.Fatal(err)
	}
	pad, err := fpuzzles.SudokuPadLink(fp)
	if err != nil {
		t.Fatal(err)
	}
	data := strings.TrimPrefix(link, fpuzzles.FPuzzlesPrefix)
	for _, tc := range []struct {
		name, text string
		meta       bool
	}{
		{"written form", xSudoku, false},
		{"written form spaced", "  \n" + strings.ReplaceAll(xSudoku, ",", ", ") + "\n", false},
		{"f-puzzles JSON", string(js), true},
		{"f-puzzles link", link, true},
		{"f-puzzles link escaped", fpuzzles.FPuzzlesPrefix + url.QueryEscape(data), true},
		{"SudokuPad link", pad, true},
		{"SudokuPad puzzleid", "https://sudokupad.app/?puzzleid=fpuzzles" + data, true},
		{"crackingthecryptic", "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + data, true},
		{"no scheme", "www.f-puzzles.com/?load=" + data, true},
	} {
		for _, read := range []func(string) (Puzzle, error){Read, ReadLine} {
			got, err := read(tc.text)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if variant.Normal(got.Puzzle).Text() != variant.Normal(want).Text() {
				t.Errorf("%s: got %s", tc.name, got.Text())
			}
			if tc.meta && (got.Title != "Cross" || got.Author != "Ann") {
				t.Errorf("%s: title %q author %q", tc.name, got.Title, got.Author)
			}
		}
	}
}

// TestReadClassic: classic text reads exactly as sudoku.Parse and
// ParseLine read it, errors included.
func TestReadClassic(t *testing.T) {
	for _, text := range []string{
		strings.Repeat(".", 80) + "1",
		"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
		"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7 rating 3.4",
		"5 3 0 | 0 7 0 | 0 0 0",
		"x" + strings.Repeat(".", 80),
		"https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.Repeat("0", 80) + "1",
		"",
	} {
		g, err := sudoku.Parse(text)
		got, gerr := Read(text)
		if (err == nil) != (gerr == nil) || err != nil && err.Error() != gerr.Error() || err == nil && (got.Givens != g || !got.Classic()) {
			t.Errorf("Read(%.30q) = %v, %v; sudoku.Parse %v", text, got.Givens, gerr, err)
		}
		g, err = sudoku.ParseLine(text)
		got, gerr = ReadLine(text)
		if (err == nil) != (gerr == nil) || err != nil && err.Error() != gerr.Error() || err == nil && got.Givens != g {
			t.Errorf("ReadLine(%.30q) = %v; sudoku.ParseLine %v", text, gerr, err)
		}
	}
}

// TestReadErrors: each bad input fails with the error that says what and
// where, of the kind that makes it a 400 (unreadable) or a 422 (a rule
// that cannot stand, or that the archive does not have).
func TestReadErrors(t *testing.T) {
	overlap := `{"givens":"` + strings.Repeat(".", 81) + `","rules":[{"type":"killer","cells":["r1c1","r1c2"],"total":3},{"type":"killer","cells":["r1c2","r1c3"],"total":5}]}`
	unknownFP := `{"size":9,"grid":[[{}]],"betweenline":[{"lines":[["R1C1","R1C2"]]}]}`
	for _, tc := range []struct {
		name, text string
		kind       record.Kind
		says       []string
	}{
		{"overlapping cages", overlap, record.KindUnprocessable, []string{"rule 2 (killer)", "r1c2"}},
		{"unknown rule", `{"givens":"` + strings.Repeat(".", 81) + `","rules":[{"type":"chaos"}]}`, record.KindUnprocessable, []string{"chaos"}},
		{"unknown f-puzzles constraint", unknownFP, record.KindUnprocessable, []string{"betweenline"}},
		{"unknown field", `{"givens":"` + strings.Repeat(".", 81) + `","colour":1}`, record.KindInvalid, []string{"colour"}},
		{"bad JSON", `{"givens":`, record.KindInvalid, []string{"JSON"}},
		{"other JSON", `{"puzzle":"1"}`, record.KindInvalid, []string{"written form", "f-puzzles"}},
		{"bad LZ", fpuzzles.FPuzzlesPrefix + "!!!!", record.KindInvalid, []string{"decompress"}},
		{"huge link", fpuzzles.FPuzzlesPrefix + strings.Repeat("A", fpuzzles.MaxLink), record.KindInvalid, []string{"limit"}},
		{"huge JSON", `{"givens":"` + strings.Repeat(" ", MaxText) + `"}`, record.KindInvalid, []string{"limit"}},
		{"written form over variant.MaxBytes", `{"givens":"` + strings.Repeat(".", 81) + `",` + strings.Repeat(" ", variant.MaxBytes) + `"rules":[]}`, record.KindInvalid, []string{"limit"}},
		{"f-puzzles JSON over fpuzzles.MaxJSON", `{"size":9,` + strings.Repeat(" ", fpuzzles.MaxJSON) + `"grid":[]}`, record.KindInvalid, []string{"limit"}},
		{"bad LZ in SudokuPad link", "https://sudokupad.app/fpuzzlesN4Ig$$$", record.KindInvalid, []string{"f-puzzles"}},
		{"SudokuPad own format", "https://sudokupad.app/scl123", record.KindUnprocessable, []string{"f-puzzles"}},
		{"classic", "12", record.KindInvalid, []string{"expected 81 cells, got 2"}},
	} {
		_, err := Read(tc.text)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if k := record.KindOf(err); k != tc.kind {
			t.Errorf("%s: kind %v, want %v (%v)", tc.name, k, tc.kind, err)
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", tc.name, err, s)
			}
		}
	}
}

// TestReadRuleError: a rule error stays a *variant.RuleError (the rule and
// its cell for programs), also behind an f-puzzles error.
func TestReadRuleError(t *testing.T) {
	var p variant.Puzzle
	p.Givens[0], p.Givens[10] = 5, 5 // r1c1 and r2c2, both on the main diagonal
	p.Rules = []variant.Rule{{Type: variant.DiagonalMinus}}
	empty := `[{},{},{},{},{},{},{},{},{}]`
	js := `{"size":9,"diagonal-":true,"grid":[[{"value":5,"given":true},{},{},{},{},{},{},{},{}],` +
		`[{},{"value":5,"given":true},{},{},{},{},{},{},{}],` + strings.TrimSuffix(strings.Repeat(empty+",", 7), ",") + "]}"
	for _, text := range []string{p.Text(), js} {
		_, err := Read(text)
		var re *variant.RuleError
		if !errors.As(err, &re) || re.Cell < 0 {
			t.Errorf("%.40s: %v is no RuleError with a cell", text, err)
		}
	}
}

// TestCheckMeta: a title or author the text rule refuses fails the read.
func TestCheckMeta(t *testing.T) {
	p := mustParse(t, xSudoku)
	for _, fp := range []fpuzzles.Puzzle{
		{Puzzle: p, Title: strings.Repeat("t", MaxTitle+1)},
		{Puzzle: p, Author: "a\x00b"},
		{Puzzle: p, Title: "a\u202eb"},
	} {
		link, err := fpuzzles.Link(fp)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Read(link)
		if record.KindOf(err) != record.KindInvalid || !strings.Contains(err.Error(), "title") && !strings.Contains(err.Error(), "author") {
			t.Errorf("%q/%q: %v", fp.Title, fp.Author, err)
		}
	}
	if err := CheckMeta(" ", ""); err != nil {
		t.Errorf("blank: %v", err)
	}
}
