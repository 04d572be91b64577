package templates

import (
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// human.go holds what pages say about how hard a puzzle is for a person
// (docs/pages.md "A puzzle"): the grade, the hardest
// technique and the typical player's time come first; the engine's
// figures are labelled as what the search cost.

// PageSorts is the order of the history's "Sort by" control: the human
// order (the pages' default) first, then record.Sorts as the API lists
// them.
var PageSorts = func() []record.Sort {
	ss := []record.Sort{record.SortHuman}
	for _, s := range record.Sorts {
		if s != record.SortHuman {
			ss = append(ss, s)
		}
	}
	return ss
}()

// HumanMeta is a puzzle's line in the home page's short lists: its grade,
// hardest technique and typical player's time where it has one ("grade
// 7.2 · Skyscraper · typical player 14 min"), or why it has no grade.
func HumanMeta(p record.Puzzle) string {
	parts := []string{"grade " + gradeText(p)}
	if p.Grade != nil && p.Technique != "" {
		parts = append(parts, p.Technique)
	}
	if p.PlayerSeconds != nil {
		parts = append(parts, "typical player "+ShortTime(float64(*p.PlayerSeconds)))
	}
	return strings.Join(parts, " · ")
}

// TypicalTime is the value of the puzzle page's "Typical player time"
// card: the players' figure, or "–" until there is one.
func TypicalTime(p record.Puzzle) string {
	return PlayerTime(p)
}

// TypicalTimeExplain says where the typical time comes from, or what the
// human order places the puzzle by until the players have spoken.
func TypicalTimeExplain(p record.Puzzle, minPlays int) string {
	const model = " The players' model weighs who played: a puzzle solved quickly by strong players is not taken for an easy one."
	if p.PlayerSeconds != nil {
		return "What the players' model expects of a typical player, from " + PlaysText(p) + "." + model
	}
	if g := record.GradeSeconds(p.GradeTenths()); g > 0 {
		return "Not enough plays yet (it needs " + Plural(minPlays, "play", "plays") + "). Until then the archive places it by its grade, at about " + ShortTime(float64(g)) + " for a typical player."
	}
	return "Not enough plays yet (it needs " + Plural(minPlays, "play", "plays") + "), and no grade to place it by."
}

// TechniqueText is the hardest technique of a puzzle's logical path for a
// card or a table cell, "–" without one.
func TechniqueText(p record.Puzzle) string {
	if p.Technique == "" {
		return "–"
	}
	return p.Technique
}
