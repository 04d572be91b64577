package sudoku

import (
	"encoding/json"
	"math/bits"
	"slices"
	"strconv"
)

// Band is a difficulty a person understands, named from the human-style
// grade (Sudoku Explainer's scale, see package logic): the hardest technique
// a person needs, not the search's backtracks, so that "extreme" always
// means hard for a person. The search effort keeps its own names
// (backtracks, guesses) wherever it is shown.
type Band string

// MarshalJSON writes a band as its name, and no band ("": several
// solutions, or a grade still pending) as null, as grade is null then
// (issue 34: a pending POST answered "band": "").
func (b Band) MarshalJSON() ([]byte, error) {
	if b == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(b))
}

// The bands, easiest first. A puzzle with several solutions, or one not
// graded yet, has no band ("", BandOf(0)).
const (
	BandEasy     Band = "easy"
	BandMedium   Band = "medium"
	BandHard     Band = "hard"
	BandFiendish Band = "fiendish"
	BandExtreme  Band = "extreme"
)

// BandInfo describes one band: the puzzles graded Min to Max tenths of a
// grade, inclusive (20 for 2.0). The last band has Max = NoMax.
type BandInfo struct {
	Band     Band
	Name     string // for people: "Easy"
	Min, Max int64  // grade in tenths, inclusive
	// Needs says for people what the band's puzzles need, hardest first
	// in the grade order of package logic's ladder.
	Needs string
}

// NoMax is the Max of the open-ended last band.
const NoMax int64 = 1<<63 - 1

// Bands lists every band in order, easiest first, by grade in tenths. The
// edges are those of docs/engine.md, on the ladder of package logic (Sudoku
// Explainer's ratings): easy is hidden singles and the direct techniques
// that leave one (up to 2.0); medium adds naked singles (2.3), pointing and
// claiming, naked and hidden pairs and the X-Wing (to 3.4); hard adds
// triples, the Swordfish, XY- and XYZ-Wings and the simplest unique
// rectangles (to 4.6); fiendish is quads, Jellyfish, WXYZ-Wings, the other
// uniqueness techniques, Aligned Pair Exclusion and the simple chains and
// cycles (to 6.6); extreme is every forcing chain above (6.7 and up: Nishio,
// cell and region, dynamic). Where the collections of testdata/puzzles fall
// is in docs/engine.md (TestBandDistribution in package logic prints it).
// Migration 00011 computes the same edges in SQL; a store test checks that
// they agree.
var Bands = []BandInfo{
	{BandEasy, "Easy", 10, 20, "singles"},
	{BandMedium, "Medium", 21, 34, "pairs and pointing"},
	{BandHard, "Hard", 35, 46, "wings and simple fish"},
	{BandFiendish, "Fiendish", 47, 66, "uniqueness and chains"},
	{BandExtreme, "Extreme", 67, NoMax, "forcing chains"},
}

// BandOf returns the band of a puzzle graded tenths (72 for 7.2), and ""
// for 0: a puzzle with several solutions or one not graded yet.
func BandOf(tenths int64) Band {
	if tenths <= 0 {
		return ""
	}
	for i := len(Bands) - 1; i > 0; i-- {
		if tenths >= Bands[i].Min {
			return Bands[i].Band
		}
	}
	return Bands[0].Band
}

// Info returns the description of b, and false for a string that is no band.
func (b Band) Info() (BandInfo, bool) {
	for _, i := range Bands {
		if i.Band == b {
			return i, true
		}
	}
	return BandInfo{}, false
}

// Rank is b's position in Bands (0 for easy), -1 for "" and for a string
// that is no band. The archive's band column holds it.
func (b Band) Rank() int {
	return slices.IndexFunc(Bands, func(i BandInfo) bool { return i.Band == b })
}

// Valid reports whether b is one of Bands.
func (b Band) Valid() bool {
	_, ok := b.Info()
	return ok
}

// MinGrade and MaxGrade are the band's grades on Sudoku Explainer's scale
// (2.0 for 20 tenths); MaxGrade is 0 for the open-ended last band.
func (i BandInfo) MinGrade() float64 { return float64(i.Min) / 10 }

// MaxGrade is the band's highest grade, 0 for the open-ended last band.
func (i BandInfo) MaxGrade() float64 {
	if i.Max == NoMax {
		return 0
	}
	return float64(i.Max) / 10
}

// Range is the band's grades for people: "up to 2.0", "2.1–3.4", "6.7 and
// above".
func (i BandInfo) Range() string {
	g := func(t int64) string { return strconv.FormatFloat(float64(t)/10, 'f', 1, 64) }
	switch {
	case i.Max == NoMax:
		return g(i.Min) + " and above"
	case i.Min <= 10:
		return "up to " + g(i.Max)
	default:
		return g(i.Min) + "–" + g(i.Max)
	}
}

// BacktracksBucket is the log-scale histogram bucket of a backtracks count:
// 0 for 0, else the bit length, so bucket k >= 1 holds 2^(k-1) to 2^k - 1
// (1, 2-3, 4-7, ...).
func BacktracksBucket(backtracks int64) int {
	if backtracks <= 0 {
		return 0
	}
	return bits.Len64(uint64(backtracks))
}

// BacktracksBucketRange returns the smallest and largest backtracks of bucket k.
func BacktracksBucketRange(k int) (lo, hi int64) {
	if k <= 0 {
		return 0, 0
	}
	if k >= 63 {
		return 1 << 62, NoMax
	}
	return 1 << (k - 1), 1<<k - 1
}
