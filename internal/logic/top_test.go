package logic

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// topRated is one puzzle of a rated set of the hardest puzzles: Sukaku
// Explainer's ER, EP and ED (NaN where the set has none).
type topRated struct {
	puzzle     string
	er, ep, ed float64
}

var (
	topN    = flag.Int("logic.topn", 0, "TestTopAgreement: an even sample of this many puzzles of each set")
	topSets = flag.String("logic.topsets", "", "TestTopAgreement: the sets to grade, comma-separated (default both)")
)

// topRatedSets are the rated sets of TestTopAgreement: the Hardest Sudokus
// Database's own ratings, and the forum sample rated here by serate.
var topRatedSets = []string{puzzletest.HardestRate, puzzletest.Forum1905Rate}

// readTop reads a rated set (puzzle, ER, EP, ED, ... TAB-separated).
func readTop(t *testing.T, name string) []topRated {
	var out []topRated
	for _, l := range puzzletest.Lines(t, name, 0) {
		f := strings.Split(l, "\t")
		if len(f) < 4 {
			t.Fatalf("%s: want puzzle, ER, EP, ED: %q", name, l)
		}
		r := topRated{puzzle: f[0]}
		for i, p := range []*float64{&r.er, &r.ep, &r.ed} {
			v, err := strconv.ParseFloat(f[1+i], 64)
			if err != nil {
				v = math.NaN()
			}
			*p = v
		}
		out = append(out, r)
	}
	return out
}

// topTally compares one of the three figures with Explainer's.
type topTally struct{ ours, se []float64 }

func (tt *topTally) add(ours, se float64) {
	if !math.IsNaN(se) {
		tt.ours = append(tt.ours, ours)
		tt.se = append(tt.se, se)
	}
}

// shares returns rho and the shares (percent) within ±0.2 and ±0.5.
func (tt *topTally) shares() (rho, w2, w5 float64) {
	n := len(tt.se)
	if n == 0 {
		return 0, 0, 0
	}
	c2, c5 := 0, 0
	for i := range tt.se {
		d := math.Abs(tt.ours[i] - tt.se[i])
		if d <= 0.2+1e-9 {
			c2++
		}
		if d <= 0.5+1e-9 {
			c5++
		}
	}
	return puzzletest.Spearman(tt.ours, tt.se), 100 * float64(c2) / float64(n), 100 * float64(c5) / float64(n)
}

// span is the range of Explainer's ratings.
func (tt *topTally) String() string {
	rho, w2, w5 := tt.shares()
	return fmt.Sprintf("n %d, rho %.3f, ±0.2 %.1f%%, ±0.5 %.1f%%", len(tt.se), rho, w2, w5)
}

// topFloors are the floors of TestTopAgreement's ER figures on the whole
// sets (-logic.full), the targets: rho, ±0.2 and ±0.5 (percent).
var topFloors = struct{ rho, w2, w5 float64 }{0.85, 70, 90}

// TestTopAgreement grades the hardest puzzles that Sukaku Explainer rated
// (puzzletest.HardestRate, Forum1905Rate) with the graders' budget
// (DeepBudget) and compares ER, EP and ED with its ratings: Spearman's rho
// and the shares within ±0.2 and ±0.5, and the time per puzzle (logged,
// not asserted). With -logic.full it grades both sets whole and fails when
// ER falls short of topFloors on either; the default run grades an even
// sample of 6 of each (2 with -short) and fails when an ER is more than 0.5
// away or a grade is a floor.
func TestTopAgreement(t *testing.T) {
	racefree.Only(t)
	n := 6
	if *topN > 0 {
		n = *topN
	}
	if testing.Short() {
		n = 2
	}
	sets := topRatedSets
	if *topSets != "" {
		sets = strings.Split(*topSets, ",")
	}
	for _, name := range sets {
		rated := readTop(t, name)
		if !*full || *topN > 0 {
			rated = topSample(rated, n)
		}
		var er, ep, ed topTally
		var times []time.Duration
		var slowest []topTime
		floors := 0
		for _, r := range rated {
			start := cpuTime()
			res, err := Solve(parse(t, r.puzzle), Options{Budget: DeepBudget})
			times = append(times, cpuTime()-start)
			slowest = keepSlowest(slowest, topTime{r.puzzle, times[len(times)-1]}, 3)
			if err != nil {
				t.Fatal(err)
			}
			f := FiguresOf(res)
			er.add(res.Grade, r.er)
			ep.add(f.EP, r.ep)
			ed.add(f.ED, r.ed)
			if res.Floor {
				floors++
			}
			if testing.Verbose() && math.Abs(res.Grade-r.er) > 0.2+1e-9 {
				t.Logf("%s SE %.1f, ours %.1f %s (floor %v)", r.puzzle, r.er, res.Grade, res.Technique, res.Floor)
			}
			if !*full && (res.Floor || math.Abs(res.Grade-r.er) > 0.5+1e-9) {
				t.Errorf("%s: grade %.1f (floor %v), Explainer %.1f", r.puzzle, res.Grade, res.Floor, r.er)
			}
		}
		slices.Sort(times)
		t.Logf("%s: %d puzzles, %d floors; CPU time median %v, p99 %v, max %v", name, len(rated), floors,
			times[len(times)/2].Round(time.Millisecond), times[min(len(times)-1, len(times)*99/100)].Round(time.Millisecond),
			times[len(times)-1].Round(time.Millisecond))
		t.Logf("%s: ER %v; EP %v; ED %v", name, &er, &ep, &ed)
		for _, st := range slowest {
			t.Logf("%s: slowest %s %v", name, st.puzzle, st.cpu.Round(time.Millisecond))
		}
		if *full {
			rho, w2, w5 := er.shares()
			if rho < topFloors.rho || w2 < topFloors.w2 || w5 < topFloors.w5 {
				t.Errorf("%s: ER agreement %v below the floors (rho %.2f, %.0f%%, %.0f%%)", name, &er, topFloors.rho, topFloors.w2, topFloors.w5)
			}
		}
	}
}

// topTime is one puzzle's grading time.
type topTime struct {
	puzzle string
	cpu    time.Duration
}

// keepSlowest adds t to the n slowest so far (slowest first).
func keepSlowest(s []topTime, t topTime, n int) []topTime {
	s = append(s, t)
	slices.SortFunc(s, func(a, b topTime) int { return int(b.cpu - a.cpu) })
	return s[:min(len(s), n)]
}

// topSample picks n rows spread evenly over rated.
func topSample(rated []topRated, n int) []topRated {
	if n >= len(rated) {
		return rated
	}
	var pick []topRated
	for i := range n {
		pick = append(pick, rated[i*len(rated)/n])
	}
	return pick
}

// cpuTime is the process's CPU time so far (user and system): the time a
// grade takes on one core, whatever else the machine runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
