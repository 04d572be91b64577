package fpuzzles

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

// FuzzRead feeds the f-puzzles reader anything: it must not panic, what
// it accepts must be valid, and it must write back to JSON that reads to
// the same puzzle, title and author. Its corpus is testdata/fuzz/FuzzRead;
// the files of testdata/read are seeds.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/read/*.json")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Read accepted what Validate refuses: %v", err)
		}
		out, err := Write(p)
		if err != nil {
			t.Fatalf("write: %v", err)
		}
		q, err := Read(out)
		if err != nil || variant.Normal(q.Puzzle).Text() != variant.Normal(p.Puzzle).Text() || q.Title != p.Title || q.Author != p.Author || q.Ruleset != p.Ruleset {
			t.Fatalf("%s does not read back: %v", out, err)
		}
	})
}

// FuzzReadLink: links never panic the reader.
func FuzzReadLink(f *testing.F) {
	f.Add("https://www.f-puzzles.com/?load=N4Ig")
	f.Add("https://sudokupad.app/fpuzzlesN4Ig")
	f.Add("https://sudokupad.app/?puzzleid=fpuzzles%2BAAA")
	f.Fuzz(func(t *testing.T, link string) {
		_, _ = ReadLink(link)
	})
}
