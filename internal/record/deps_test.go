package record

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLayers holds the direction of issue 44: the engine (package sudoku)
// and the reader of typed numbers (userinput) import nothing of this
// module, the variant engine (issue 47) the engine only (and its formats,
// package fpuzzles, the variant engine and the engine only), and the
// archive's record imports those two and the text rule (textrule, itself
// a leaf) only, and the one reader of puzzle text (puzzletext) the
// engines, their formats, the text rule and the record (for its errors'
// kind) only, so the engine can be used without the archive and the
// record never drags in a store, a server or the logic package.
func TestLayers(t *testing.T) {
	const module = "github.com/sudoku-archive/sudoku/"
	for dir, allowed := range map[string][]string{
		"../sudoku":           nil,
		"../userinput":        nil,
		"../textrule":         nil,
		"../variant":          {"internal/sudoku"},
		"../variant/fpuzzles": {"internal/variant", "internal/sudoku"},
		".":                   {"internal/sudoku", "internal/variant", "internal/variant/fpuzzles", "internal/userinput", "internal/textrule"},
		"../puzzletext":       {"internal/sudoku", "internal/variant", "internal/variant/fpuzzles", "internal/textrule", "internal/record"},
	} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, is := range f.Imports {
				p, _ := strconv.Unquote(is.Path.Value)
				if rest, ok := strings.CutPrefix(p, module); ok && !slices.Contains(allowed, rest) {
					t.Errorf("%s imports %s: only %v of this module may be imported there", path, p, allowed)
				}
			}
		}
	}
}
