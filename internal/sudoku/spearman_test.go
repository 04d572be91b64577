package sudoku

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

var spearman = flag.Bool("spearman", false, "compare the rank correlation of backtracks with the Sukaku Explainer rating for K presentations")

// TestSpearman prints Spearman's rho between the Sukaku Explainer rating of
// the 19,860 rated puzzles and the backtracks recorded for each way of
// measuring them: the puzzle as written, its canonical form alone (K = 1),
// and the median of the first K fixed presentations of the canonical form.
// It runs only with -spearman (about 10 s on one core):
//
//	go test -run TestSpearman -spearman -v ./internal/sudoku
func TestSpearman(t *testing.T) {
	if !*spearman {
		t.Skip("prints the K study only with -spearman")
	}
	rated := puzzletest.RatedPuzzles(t, 0)
	ks := []int{1, 3, 5, 7, 9, 17}
	ratings := make([]float64, len(rated))
	written := make([]float64, len(rated))
	perK := make([][]float64, len(ks))
	for i := range perK {
		perK[i] = make([]float64, len(rated))
	}
	for i, rp := range rated {
		g, err := ParseLine(rp.Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		ratings[i] = rp.Rating
		r0, err := Solve(g, Options{})
		if err != nil || r0.Solutions != 1 {
			t.Fatalf("%s: %d solutions, %v", g, r0.Solutions, err)
		}
		written[i] = float64(r0.Backtracks)
		c, _ := CanonicalSolved(g, r0.Solution)
		var bts [17]int64
		for j := range bts {
			r, err := Solve(presentation(j).Apply(c), Options{})
			if err != nil {
				t.Fatal(err)
			}
			bts[j] = r.Backtracks
		}
		for ki, k := range ks {
			s := slices.Clone(bts[:k])
			slices.Sort(s)
			perK[ki][i] = float64(s[k/2])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rated puzzles: Spearman rho of backtracks with the Sukaku Explainer rating\n", len(rated))
	fmt.Fprintf(&b, "| measure | rho |\n|---|---|\n| as written (engine 1) | %.3f |\n", puzzletest.Spearman(written, ratings))
	for ki, k := range ks {
		name := fmt.Sprintf("median of K = %d presentations", k)
		if k == 1 {
			name = "canonical form alone (K = 1)"
		}
		fmt.Fprintf(&b, "| %s | %.3f |\n", name, puzzletest.Spearman(perK[ki], ratings))
	}
	fmt.Fprint(os.Stdout, b.String())
}

// spearmanRho is Pearson's correlation of the ranks, ties sharing their mean
// rank.
