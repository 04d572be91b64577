package templates

import (
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// SetterView is the setter's page: the grid being set and, after a post,
// its analysis (nil before).
type SetterView struct {
	Form     SubmitForm
	Analysis *record.Analysis
}

// The analysis as the setter's page writes it; setter.js writes the same
// words when it updates the page as the setter types.

// analysisSolutions says how many solutions a grid has.
func analysisSolutions(a record.Analysis) string {
	switch a.Solutions {
	case 0:
		return "none"
	case 1:
		return "exactly one"
	}
	return "two or more"
}

// minimalText says whether every given is needed.
func minimalText(a record.Analysis) string {
	switch {
	case a.Minimal == nil:
		return "—"
	case *a.Minimal:
		return "yes: every given is needed"
	}
	return "no: " + strconv.Itoa(len(a.Redundant)) + " givens could each go"
}

// redundantText lists the cells whose given could go, as rNcM.
func redundantText(a record.Analysis) string {
	if len(a.Redundant) == 0 {
		return "none"
	}
	cells := make([]string, len(a.Redundant))
	for i, c := range a.Redundant {
		cells[i] = "r" + strconv.Itoa(c/9+1) + "c" + strconv.Itoa(c%9+1)
	}
	return strings.Join(cells, ", ")
}

// analysisGrade writes a grade figure, "—" for none.
func analysisGrade(g *float64) string {
	if g == nil {
		return "—"
	}
	return strconv.FormatFloat(*g, 'f', 1, 64)
}

// gradeFigure writes one grade figure g of a as the setter reads it:
// "grading…" while it is graded in the background, the reason there is
// none, never a bare dash for a unique puzzle; the grade itself (main)
// says when it is only a floor.
func gradeFigure(a record.Analysis, g *float64, main bool) string {
	switch {
	case a.GradeStatus == record.GradePending:
		if main {
			return "grading… (beyond a request's budget: press Analyse again in a few seconds)"
		}
		return "grading…"
	case g == nil && a.Solutions != 1:
		return "none: only a puzzle with one solution has a grade"
	case main && g != nil && a.GradeFloor:
		return "at least " + analysisGrade(g) + " (beyond the solver's techniques)"
	}
	return analysisGrade(g)
}

// techniquesText lists the techniques of the path.
func techniquesText(a record.Analysis) string {
	if a.GradeStatus == record.GradePending {
		return "grading…"
	}
	if a.Techniques == "" {
		return "—"
	}
	return strings.Join(a.Techniques.Names(), ", ")
}

// canonicalText is the canonical form, "—" for none.
func canonicalText(a record.Analysis) string {
	if a.Canonical == nil || *a.Canonical == (sudoku.Grid{}) {
		return "—"
	}
	return a.Canonical.String()
}
