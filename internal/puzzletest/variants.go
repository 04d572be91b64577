package puzzletest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// VariantPuzzle is one puzzle of the variant engine's test set
// (internal/variant/testdata/puzzles.txt, CC0; its README says how it was
// made): its name, its count of solutions (1, or 2 for two or more) and
// its written form, which variant.Parse reads. It is kept as text so that
// package variant's own tests can use this package.
type VariantPuzzle struct {
	Name      string
	Solutions int
	Text      string
}

// readVariants reads the test set once per test process.
var readVariants = sync.OnceValues(func() ([]VariantPuzzle, error) {
	b, err := os.ReadFile(filepath.Join(Dir(), "..", "..", "internal", "variant", "testdata", "puzzles.txt"))
	if err != nil {
		return nil, err
	}
	var out []VariantPuzzle
	for line := range strings.Lines(string(b)) {
		f := strings.SplitN(strings.TrimRight(line, "\n"), "\t", 3)
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, err
		}
		out = append(out, VariantPuzzle{Name: f[0], Solutions: n, Text: f[2]})
	}
	return out, nil
})

// Variants returns the variant engine's test set, in the file's order.
func Variants(tb testing.TB) []VariantPuzzle {
	tb.Helper()
	ps, err := readVariants()
	if err != nil {
		tb.Fatalf("read the variant test set: %v", err)
	}
	return ps
}

// VariantText returns the written form of the test set's puzzle name.
func VariantText(tb testing.TB, name string) string {
	tb.Helper()
	for _, p := range Variants(tb) {
		if p.Name == name {
			return p.Text
		}
	}
	tb.Fatalf("no %s in the variant test set", name)
	return ""
}
