package sudoku

import (
	"flag"
	"fmt"
	"math"
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
	fmt.Fprintf(&b, "| measure | rho |\n|---|---|\n| as written (engine 1) | %.3f |\n", spearmanRho(written, ratings))
	for ki, k := range ks {
		name := fmt.Sprintf("median of K = %d presentations", k)
		if k == 1 {
			name = "canonical form alone (K = 1)"
		}
		fmt.Fprintf(&b, "| %s | %.3f |\n", name, spearmanRho(perK[ki], ratings))
	}
	fmt.Fprint(os.Stdout, b.String())
}

// spearmanRho is Pearson's correlation of the ranks, ties sharing their mean
// rank.
func spearmanRho(x, y []float64) float64 {
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

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpFloat(v[a], v[b]) })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j-1)/2 + 1
		for k := i; k < j; k++ {
			r[idx[k]] = mean
		}
		i = j
	}
	return r
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
