package record

import "github.com/sudoku-archive/sudoku/internal/sudoku"

// Stats is the archive at a glance: counts and histograms, each histogram a
// slice of puzzle counts indexed by bucket (see BacktracksBucket,
// SolveTimeBucket; Clues is indexed by the clue count itself, 0-81).
type Stats struct {
	Total       int64 // archived puzzles
	Unique      int64 // of which have exactly one solution
	Submissions int64 // submissions in all, duplicates included
	Distinct    int64 // distinct puzzles: classes of entries that are the same puzzle written another way
	Ungraded    int64 // entries with one solution that wait for their grade
	// Grades counts the graded entries by grade (in tenths) and hardest
	// technique; entries with several solutions have no grade.
	Grades     []GradeCount
	Backtracks []int64
	SolveTime  []int64
	Clues      []int64
}

// BandCounts returns the number of puzzles in each of Bands, in order,
// summed from the grade counters (a band is a range of grades), so it is
// exact: the puzzles without a grade (several solutions, or waiting for
// theirs) are in no band.
func (s Stats) BandCounts() []int64 {
	out := make([]int64, len(sudoku.Bands))
	for _, g := range s.Grades {
		if r := sudoku.BandOf(g.Tenths).Rank(); r >= 0 {
			out[r] += g.N
		}
	}
	return out
}

// solveTimeEdges are the lower edges, in nanoseconds, of the solve time
// buckets 1 and up: 1-2-5 steps from 1 µs to 500 s. Bucket 0 is under 1 µs.
var solveTimeEdges = func() []int64 {
	var e []int64
	for p := int64(1000); p <= 100_000_000_000; p *= 10 {
		e = append(e, p, 2*p, 5*p)
	}
	return e
}()

// SolveTimeBuckets is the number of solve time buckets.
var SolveTimeBuckets = len(solveTimeEdges) + 1

// SolveTimeBucket is the log-scale histogram bucket of a solve time: 0 under
// 1 µs, then one bucket per 1-2-5 step (1-2 µs, 2-5 µs, 5-10 µs, 10-20 µs, ...).
func SolveTimeBucket(ns int64) int {
	k := 0
	for k < len(solveTimeEdges) && ns >= solveTimeEdges[k] {
		k++
	}
	return k
}

// SolveTimeBucketRange returns the first nanosecond of bucket k and the
// first of the next (NoMax for the last bucket).
func SolveTimeBucketRange(k int) (lo, next int64) {
	switch {
	case k <= 0:
		return 0, solveTimeEdges[0]
	case k >= len(solveTimeEdges):
		return solveTimeEdges[len(solveTimeEdges)-1], sudoku.NoMax
	}
	return solveTimeEdges[k-1], solveTimeEdges[k]
}

// GradeCount is how many archived entries have one grade and one hardest
// technique.
type GradeCount struct {
	Tenths    int64 // the grade times ten: 72 for 7.2
	Technique string
	N         int64
}
