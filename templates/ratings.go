package templates

import (
	"math"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/record"
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
	Rho   *float64 // Spearman's ρ; nil when fewer than MinPuzzles puzzles have the measure, or Flat
	N     int      // puzzles behind Rho (those with the measure)
	// Flat: enough puzzles, but the measure (or the players' time) is the
	// same for all of them, so no order to compare.
	Flat  bool
	Chart Scatter
}

// RhoLabel writes m's ρ for people: "0.82", "not enough puzzles", or
// "none: all alike" for a flat measure.
func (m MeasureFit) RhoLabel() string {
	if m.Flat {
		return "none: all alike"
	}
	return RhoText(m.Rho)
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

// RhoStrength says in a word or two how strong a ρ is: "strong",
// "moderate, reversed", "next to none".
func RhoStrength(rho float64) string {
	a := math.Abs(rho)
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
		return "next to none"
	}
	if rho < 0 {
		s += ", reversed"
	}
	return s
}

// RhoWords says what a ρ means, in a sentence.
func RhoWords(rho float64) string {
	s := RhoStrength(rho)
	switch {
	case math.Abs(rho) < 0.2:
		return s + ": the measure says next to nothing about the players' time"
	case rho < 0:
		return s + ": the higher the measure, the faster the players"
	}
	return s + ": the higher the measure, the longer the players take"
}

// PlayersText is what the puzzle page says of how the archive's players
// found a puzzle: "typical player: 14 min, 61 plays, 92% solved" once the
// model has enough plays for a figure (minPlays), the plays so far before
// that.
func PlayersText(p record.Puzzle, minPlays int) string {
	switch {
	case p.PlayerSeconds != nil:
		return "typical player: " + ShortTime(float64(*p.PlayerSeconds)) + ", " + PlaysText(p)
	case p.Plays == 0:
		return "no plays yet: a typical player's time shows after " + Plural(minPlays, "play", "plays")
	}
	return "not enough plays yet for a typical player's time (it needs " + strconv.Itoa(minPlays) + "): " + PlaysText(p)
}

// PlaysText counts a puzzle's plays and how many were solved: "61 plays,
// 92% solved", "no plays yet".
func PlaysText(p record.Puzzle) string {
	if p.Plays == 0 {
		return "no plays yet"
	}
	s := Plural(p.Plays, "play", "plays")
	if p.SolveRate != nil {
		s += ", " + strconv.FormatFloat(math.Round(*p.SolveRate*100), 'f', 0, 64) + "% solved"
	}
	return s
}

// PlayerTime is a puzzle's typical player's time for a table cell: "14
// min", or "–" until it has one.
func PlayerTime(p record.Puzzle) string {
	if p.PlayerSeconds == nil {
		return "–"
	}
	return ShortTime(float64(*p.PlayerSeconds))
}
