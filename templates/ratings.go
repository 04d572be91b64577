package templates

import (
	"strconv"
)

// RatingsView is the ratings page: how well each machine measure predicts
// how hard the archive's players found its puzzles.
type RatingsView struct {
	// MinPlays is how many counted plays a puzzle needs before it takes
	// part; MinPuzzles how many such puzzles a ρ needs before it is given.
	MinPlays, MinPuzzles int
	// Played counts the puzzles with at least one counted play, Rated
	// those with MinPlays or more (the puzzles behind every figure).
	Played, Rated int
	Measures      []MeasureFit
	Techniques    []TechniqueTime
}

// MeasureFit is one machine measure against the players' difficulty.
type MeasureFit struct {
	Key   string // the API's name: "backtracks", "solve_time", ...
	Name  string
	About string   // what the measure is, one sentence
	Rho   *float64 // Spearman's ρ; nil when fewer than MinPuzzles puzzles have the measure
	N     int      // puzzles behind Rho (those with the measure)
	Chart Scatter
}

// TechniqueTime is the typical time of the rated puzzles whose hardest
// technique is Technique: the median of their players' typical times.
type TechniqueTime struct {
	Technique string
	Grade     float64 // the technique's place on the scale: its rated puzzles' lowest grade
	Puzzles   int
	Seconds   float64
}

// RhoText writes a ρ for people: "0.82", or "not enough puzzles".
func RhoText(rho *float64) string {
	if rho == nil {
		return "not enough puzzles"
	}
	return strconv.FormatFloat(*rho, 'f', 2, 64)
}

// RhoWords says what a ρ means, in words.
func RhoWords(rho float64) string {
	a := rho
	if a < 0 {
		a = -a
	}
	var s string
	switch {
	case a >= 0.8:
		s = "strong"
	case a >= 0.6:
		s = "good"
	case a >= 0.4:
		s = "moderate"
	case a >= 0.2:
		s = "weak"
	default:
		return "next to no relation"
	}
	if rho < 0 {
		return s + ", reversed: the higher the measure, the faster the players"
	}
	return s + ": the higher the measure, the longer the players take"
}
