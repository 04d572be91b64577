package sudoku

import (
	"math/bits"
	"strconv"
)

// Band is a difficulty grade a person understands, named from the measured
// Backtracks alone: unlike solve time, backtracks do not depend on the
// machine, so a puzzle's band is the same everywhere and never changes.
type Band string

// The bands, easiest first. The thresholds come from the recorded backtracks
// (engine 2: the median of the presentations of the canonical form) of the
// collections in testdata/puzzles (TestBandDistribution prints the table;
// the README shows it). Re-derived for engine 2, the same powers of two still
// split the collections where engine 1's did: Easy is what propagation alone
// solves (97.5% of the Kaggle sample, 44.6% of the 17-clue list), the
// generated "diabolical" bank is Medium (96%) as is 42.5% of the 17-clue
// list, the top1465 benchmark is mostly Hard (60.5%), and the forum's hardest
// lists are Extreme (96% and 99.5%). A puzzle with several solutions has no
// band (BandFor).
const (
	BandEasy     Band = "easy"
	BandMedium   Band = "medium"
	BandHard     Band = "hard"
	BandFiendish Band = "fiendish"
	BandExtreme  Band = "extreme"
)

// BandInfo describes one band: the puzzles with Min to Max backtracks,
// inclusive. The last band has Max = NoMax.
type BandInfo struct {
	Band     Band
	Name     string // for people: "Easy"
	Min, Max int64
}

// NoMax is the Max of the open-ended last band.
const NoMax int64 = 1<<63 - 1

// Bands lists every band in order, easiest first. Every bound falls on a
// power of two, the edges of BacktracksBucket, so the band of a puzzle can be
// told from its bucket and a histogram sums to the band counts.
var Bands = []BandInfo{
	{BandEasy, "Easy", 0, 0},
	{BandMedium, "Medium", 1, 15},
	{BandHard, "Hard", 16, 63},
	{BandFiendish, "Fiendish", 64, 127},
	{BandExtreme, "Extreme", 128, NoMax},
}

// BandOf returns the band of a puzzle whose search withdrew backtracks
// guesses.
func BandOf(backtracks int64) Band {
	for i := len(Bands) - 1; i > 0; i-- {
		if backtracks >= Bands[i].Min {
			return Bands[i].Band
		}
	}
	return Bands[0].Band
}

// BandFor returns the band of a puzzle with the given number of solutions
// (0, 1 or 2) and backtracks: BandOf(backtracks) for a puzzle with a unique
// solution, and "" (no band) otherwise, since the search of a puzzle with
// several solutions stops at the second and its counts depend on the order
// in which it tries the digits.
func BandFor(solutions int, backtracks int64) Band {
	if solutions != 1 {
		return ""
	}
	return BandOf(backtracks)
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

// Valid reports whether b is one of Bands.
func (b Band) Valid() bool {
	_, ok := b.Info()
	return ok
}

// Range is the band's backtracks for people: "0", "1–15", "128 or more".
func (i BandInfo) Range() string {
	switch {
	case i.Max == NoMax:
		return strconv.FormatInt(i.Min, 10) + " or more"
	case i.Min == i.Max:
		return strconv.FormatInt(i.Min, 10)
	default:
		return strconv.FormatInt(i.Min, 10) + "–" + strconv.FormatInt(i.Max, 10)
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
