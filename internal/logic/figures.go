package logic

import (
	"slices"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// The figures of a graded path beside its grade: Sudoku Explainer's EP and
// ED, and the techniques the path used.

// Figures are the numbers a logical path gives besides its grade.
type Figures struct {
	// EP is the hardest step up to and including the first placement (the
	// whole path's floor when the solver stopped before one).
	EP float64
	// ED is the grade of the first step.
	ED float64
	// Techniques names every technique the path used, each once, easiest
	// first: by the lowest grade it was met at, then by first use.
	Techniques []string
}

// FiguresOf returns r's figures; zero for a path without a step (a full
// grid). A stopped path's figures are lower bounds, like its grade: EP is
// at most r.Grade, and ED at most EP.
func FiguresOf(r Result) Figures {
	if len(r.Steps) == 0 {
		return Figures{EP: r.Grade, ED: r.Grade, Techniques: []string{}}
	}
	f := Figures{ED: r.Steps[0].Grade, EP: r.Grade} // no placement: as hard as the path goes
	hardest := 0.0
	for _, st := range r.Steps {
		hardest = max(hardest, st.Grade)
		if len(st.Placements) > 0 {
			f.EP = hardest
			break
		}
	}
	f.EP = min(f.EP, r.Grade)
	f.ED = min(f.ED, f.EP)
	f.Techniques = techniquesOf(r.Steps)
	return f
}

// techniquesOf lists the techniques of steps, each once, ordered by the
// lowest grade each was met at, first use breaking ties.
func techniquesOf(steps []Step) []string {
	type seen struct {
		name  string
		grade float64
		first int
	}
	at := map[string]int{}
	var ts []seen
	for i, st := range steps {
		if j, ok := at[st.Technique]; ok {
			ts[j].grade = min(ts[j].grade, st.Grade)
			continue
		}
		at[st.Technique] = len(ts)
		ts = append(ts, seen{st.Technique, st.Grade, i})
	}
	slices.SortStableFunc(ts, func(a, b seen) int {
		switch {
		case a.grade < b.grade:
			return -1
		case a.grade > b.grade:
			return 1
		}
		return a.first - b.first
	})
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	return names
}

// clearGrade empties p's grade and figures, graded by version ("" for not
// graded).
func clearGrade(p *record.Puzzle, version string) {
	p.Grade, p.GradeFloor, p.Technique, p.GradeVersion = nil, false, "", version
	p.GradeEP, p.GradeED, p.Techniques = nil, nil, ""
	p.SetGradeStatus()
}

// setGrade gives p the grade and figures of its path r (a full grid has
// none).
func setGrade(p *record.Puzzle, r Result) {
	defer p.SetGradeStatus()
	if r.Grade == 0 {
		return // a full grid: nothing to grade
	}
	f := FiguresOf(r)
	g, ep, ed := r.Grade, f.EP, f.ED
	p.Grade, p.GradeFloor, p.Technique = &g, r.Floor, r.Technique
	p.GradeEP, p.GradeED, p.Techniques = &ep, &ed, record.JoinTechniques(f.Techniques)
}
