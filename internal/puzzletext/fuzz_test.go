package puzzletext

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// FuzzRead feeds the reader anything: it must not panic; what it accepts
// must be valid (a variant) and within the text rule; what it refuses must be an
// error of a kind the roads answer as the input's fault (400 or 422),
// never a bug. Its corpus is testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add(xSudoku)
	f.Add("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	f.Add(fpuzzles.FPuzzlesPrefix + "N4IgzglgXgpiBcACAnAGkSA5gJwgEwUQG0jgBfdcyixK2mu")
	f.Add("https://sudokupad.app/?puzzleid=fpuzzles%2BAAA")
	f.Add(`{"size":9,"grid":[[{"value":1,"given":true}]],"killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]}`)
	f.Add(`{"givens":"` + "........." + `","rules":[]}`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, read := range []func(string) (Puzzle, error){Read, ReadLine} {
			p, err := read(text)
			if err != nil {
				if k := record.KindOf(err); k != record.KindInvalid && k != record.KindUnprocessable {
					t.Fatalf("%q: %v is of kind %v", text, err, k)
				}
				continue
			}
			// Classic text is read as package sudoku reads it: its givens
			// are checked against each other when rated, not here.
			if err := p.Validate(); err != nil && !p.Classic() {
				t.Fatalf("%q: read what Validate refuses: %v", text, err)
			}
			if err := CheckMeta(p.Title, p.Author); err != nil {
				t.Fatalf("%q: read a title or author the text rule refuses: %v", text, err)
			}
		}
	})
}
