// Package puzzletest gives tests and benchmarks the standard puzzle
// collections kept in the repository's testdata/puzzles (gzip-compressed; see
// testdata/README.md for each file's source and licence). Nothing here reads
// a path outside the repository.
package puzzletest

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The collections, by the name of their uncompressed file.
const (
	SeventeenClue  = "17_clue.txt"
	Forum1106      = "forum_hardest_1106.txt"
	Forum1905      = "forum_hardest_1905_11plus_even.txt"
	Kaggle         = "kaggle9m_easy_even5000.txt"
	Top1465        = "magictour_top1465.txt"
	Norvig         = "norvig_easy50.txt"
	Diabolical     = "sudokuexchange_diabolical_even.txt"
	DiabolicalRate = "sudokuexchange_diabolical_even_rated.tsv"
	// HeldOutRate: puzzles the grade was never tuned on (generated, 17-clue,
	// easy), each rated by Sukaku Explainer's serate: puzzle, ER, EP, ED and
	// ER's technique, TAB-separated.
	HeldOutRate = "se_heldout_rated.tsv"
	// HardestRate: the rated puzzles of the forum's Hardest Sudokus Database
	// of 2011-06-26: puzzle, ER, EP, ED (EP and ED may be empty) and the
	// database's label, TAB-separated.
	HardestRate = "hardest_db_110626_rated.tsv"
	// Forum1905Rate: every 400th puzzle of Forum1905 from the first, rated
	// here by Sukaku Explainer's serate: puzzle, ER, EP, ED and ER's
	// technique, TAB-separated (testdata/README.md).
	Forum1905Rate = "forum_1905_sample_rated.tsv"
)

// Collections lists the puzzle files (not the rated table), easiest first by
// the search engine's measure.
var Collections = []string{Kaggle, Norvig, Diabolical, SeventeenClue, Top1465, Forum1905, Forum1106}

// Dir is the absolute path of testdata/puzzles, found from this source file so
// that it works from any package's test directory.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("puzzletest: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "puzzles")
}

// Open returns a reader of the named collection's text, decompressed.
func Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(filepath.Join(Dir(), name+".gz"))
	if err != nil {
		return nil, fmt.Errorf("open collection %s: %w", name, err)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open collection %s: %w", name, err)
	}
	return readCloser{z, f}, nil
}

type readCloser struct {
	*gzip.Reader
	f *os.File
}

func (r readCloser) Close() error {
	err := r.Reader.Close()
	if ferr := r.f.Close(); err == nil {
		err = ferr
	}
	return err
}

// Text returns the whole text of the named collection, failing tb if it
// cannot be read.
func Text(tb testing.TB, name string) []byte {
	tb.Helper()
	r, err := Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("read collection %s: %v", name, err)
	}
	return b
}

// Lines returns the non-empty lines of the named collection, at most n when n
// is positive.
func Lines(tb testing.TB, name string, n int) []string {
	tb.Helper()
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(Text(tb, name))))
	for sc.Scan() && (n <= 0 || len(lines) < n) {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// Rated is one puzzle of the rated table with its Sukaku Explainer rating.
type Rated struct {
	Puzzle string
	Rating float64
}

// RatedPuzzles returns the rated table (DiabolicalRate), at most n rows when
// n is positive.
func RatedPuzzles(tb testing.TB, n int) []Rated {
	tb.Helper()
	return RatedFile(tb, DiabolicalRate, n)
}

// RatedFile returns the puzzles of a rated table (each line a puzzle, a TAB
// and its rating; further TAB-separated fields are ignored), at most n rows
// when n is positive.
func RatedFile(tb testing.TB, name string, n int) []Rated {
	tb.Helper()
	var out []Rated
	for i, l := range Lines(tb, name, n) {
		f := strings.Split(l, "\t")
		var v float64
		if len(f) < 2 {
			tb.Fatalf("%s line %d: want puzzle TAB rating, got %q", name, i+1, l)
		}
		if _, err := fmt.Sscan(f[1], &v); err != nil {
			tb.Fatalf("%s line %d: want puzzle TAB rating, got %q", name, i+1, l)
		}
		out = append(out, Rated{f[0], v})
	}
	return out
}

// Spearman returns Spearman's rank correlation ρ of x and y (equal
// lengths): the Pearson correlation of their ranks, ties given the mean of
// the ranks they span. The engine's measures and the grade are compared
// with the rated table's ratings by it.
func Spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// ranks returns the 1-based rank of each value of v, ties sharing their
// mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			r[idx[k]] = float64(i+j-1)/2 + 1
		}
		i = j
	}
	return r
}
