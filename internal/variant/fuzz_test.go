package variant

import (
	"os"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// FuzzParse feeds the reader anything: it must not panic, and what it
// accepts must be valid, write back to a form it reads the same, and
// canonicalise without error. Its corpus is testdata/fuzz/FuzzParse, and
// the test puzzles are seeds.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(puzzlesFile); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if fs := strings.SplitN(line, "\t", 3); len(fs) == 3 {
				f.Add([]byte(fs[2]))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate refuses: %v", err)
		}
		text := Normal(p).Text()
		q, err := Parse([]byte(text))
		if err != nil || Normal(q).Text() != text {
			t.Fatalf("written form %s does not read back: %v", text, err)
		}
		if !p.Classic() {
			c, _, err := Canonical(p, sudoku.Options{MaxNodes: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("canonical form %s is not valid: %v", c.Text(), err)
			}
		}
	})
}
