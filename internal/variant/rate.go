package variant

import (
	"slices"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// EngineVersion names the variant search whose measures are recorded; bump
// it whenever a change alters solutions, backtracks, guesses or nodes of a
// variant puzzle. Classic puzzles keep sudoku.EngineVersion.
const EngineVersion = "v3"

// Measures is what Rate measured of a puzzle: package sudoku's figures
// (the same names and meaning), the canonical puzzle and its written form.
type Measures struct {
	Puzzle     Puzzle // as given
	Canonical  Puzzle // the same for every way of writing the puzzle
	Text       string // Canonical's written form: the puzzle's identity
	Variants   []Type // the rule types, sorted and once each (nil for a classic)
	Solution   sudoku.Grid
	Clues      int
	Solutions  int // 1 or 2 (two or more)
	Backtracks int64
	Guesses    int64
	Nodes      int64
	SolveNS    int64 // the median of the timed runs
	// EngineVersion names the engine that measured: sudoku.EngineVersion
	// for a classic puzzle, "variant-" + EngineVersion otherwise.
	EngineVersion string
}

// Variants lists the rule types of p, sorted and once each.
func Variants(p Puzzle) []Type {
	var out []Type
	for _, r := range p.Rules {
		out = append(out, r.Type)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Rate measures p. A classic puzzle is sudoku.Rate's, unchanged. A
// variant is searched in its canonical form (so every way of writing it
// gets the same counts) Options.Runs times (at least 3), SolveNS being the
// median; its Solution is moved back to p as written. It fails with a
// *RuleError, sudoku.ErrNoSolution, sudoku.ErrBudget or ErrCanceled.
func Rate(p Puzzle, opt sudoku.Options) (Measures, error) {
	if p.Classic() {
		m, err := sudoku.Rate(p.Givens, opt)
		if err != nil {
			return Measures{}, err
		}
		c := Puzzle{Givens: m.Canonical}
		return Measures{
			Puzzle: p, Canonical: c, Text: c.Text(), Solution: m.Solution, Clues: m.Clues,
			Solutions: m.Solutions, Backtracks: m.Backtracks, Guesses: m.Guesses, Nodes: m.Nodes,
			SolveNS: m.SolveNS, EngineVersion: m.EngineVersion,
		}, nil
	}
	if err := p.Validate(); err != nil {
		return Measures{}, err
	}
	c, t := canonicalVariant(p)
	mod, _ := compile(c)
	var times []int64
	var res sudoku.Result
	for range max(opt.Runs, 3) {
		t0 := time.Now()
		r, err := mod.solve(c.Givens, opt, false)
		times = append(times, time.Since(t0).Nanoseconds())
		if err != nil {
			return Measures{}, err
		}
		res = r
	}
	if res.Solutions == 0 {
		return Measures{}, sudoku.ErrNoSolution
	}
	slices.Sort(times)
	return Measures{
		Puzzle: p, Canonical: c, Text: c.Text(), Variants: Variants(p),
		Solution: t.Inverse().Apply(res.Solution), Clues: p.Givens.Clues(),
		Solutions: res.Solutions, Backtracks: res.Backtracks, Guesses: res.Guesses, Nodes: res.Nodes,
		SolveNS: times[len(times)/2], EngineVersion: "variant-" + EngineVersion,
	}, nil
}
