package logic

import (
	"fmt"
	"slices"
	"strings"
)

// The sentences of the steps, one function per kind of step; the technique
// table (techniques.go) says which technique uses which.

func renderFullHouse(s Step) string {
	p := s.Placements[0]
	return fmt.Sprintf("Full house: %s is the last empty cell of %s, so it is %d.", cellName(p.Cell), unitName(s.Units[0]), p.Digit)
}

func renderHiddenSingle(s Step) string {
	p := s.Placements[0]
	return fmt.Sprintf("Hidden single: in %s the only place for %d is %s.", unitName(s.Units[0]), p.Digit, cellName(p.Cell))
}

func renderNakedSingle(s Step) string {
	p := s.Placements[0]
	return fmt.Sprintf("Naked single: %s can only be %d.", cellName(p.Cell), p.Digit)
}

// renderLocking writes pointing and claiming, direct or not.
func renderLocking(s Step) string {
	d := s.Digits[0]
	if len(s.Placements) > 0 {
		return fmt.Sprintf("%s: in %s the %ds lie in %s, so %d cannot be in %s, which leaves %s as the only place for %d in %s.", s.Technique, unitName(s.Units[0]), d, unitName(s.Units[1]), d, cellList(elimCells(s)),
			cellName(s.Placements[0].Cell), d, unitName(s.Units[2]))
	}
	return fmt.Sprintf("%s: in %s the %ds lie in %s, so %d is removed from %s.", s.Technique, unitName(s.Units[0]), d, unitName(s.Units[1]), d, cellList(elimCells(s)))
}

// renderDirectHiddenSet writes a direct hidden pair or triple: the set's
// digits keep its cells, so the digit placed loses them, which leaves it
// one place in the unit.
func renderDirectHiddenSet(s Step) string {
	p := s.Placements[0]
	return fmt.Sprintf("%s: in %s, %s fit only %s, so %d cannot be in them, which leaves %s as the only place for %d in %s.",
		s.Technique, unitName(s.Units[0]), digitList(s.Digits), cellList(s.Cells), p.Digit, cellName(p.Cell), p.Digit, unitName(s.Units[0]))
}

func renderNakedSet(s Step) string {
	return fmt.Sprintf("%s: %s hold only %s in %s, so %s.", s.Technique, cellList(s.Cells), digitList(s.Digits), unitName(s.Units[0]), s.outcome())
}

func renderHiddenSet(s Step) string {
	return fmt.Sprintf("%s: in %s, %s fit only %s, so %s.", s.Technique, unitName(s.Units[0]), digitList(s.Digits), cellList(s.Cells), s.outcome())
}

func renderFish(s Step) string {
	n := len(s.Units) / 2
	base, cover := make([]string, n), make([]string, n)
	for i := range n {
		base[i] = unitName(s.Units[i])
		cover[i] = unitName(s.Units[n+i])
	}
	return fmt.Sprintf("%s: the %ds of %s lie in %s, so %s.", s.Technique, s.Digits[0], andList(base), andList(cover), s.outcome())
}

// renderWing writes the wings. A doubly linked wing (alsWingDouble: roof
// is its bivalue cell, setDigits every digit of the set) removes each of
// its digits, so its sentence names them all.
func renderWing(s Step) string {
	if len(s.roof) == 1 && len(s.setDigits) > 0 {
		yz, xz := s.roof[0], s.Digits
		return fmt.Sprintf("%s: %s hold between them only %s, as many digits as cells, and none twice (every other cell of them holding %s sees %s), so each digit is in one of them, and %s.",
			s.Technique, cellList(s.Cells), digitList(s.setDigits), orList(xz), cellName(yz), s.outcome())
	}
	return fmt.Sprintf("%s: whichever way %s resolve, one of the cells holding %d is %d, so %s.", s.Technique, cellList(s.Cells), s.Digits[0], s.Digits[0], s.outcome())
}

func renderRectangle(s Step) string {
	return fmt.Sprintf("%s: %s would otherwise hold only %s and the puzzle would have two solutions, so %s.", s.Technique, cellList(s.Cells), digitList(s.Digits), s.outcome())
}

// renderRectangle2 writes a unique rectangle of type 2: the two roof cells
// share one extra digit (setDigits), one of them holds it.
func renderRectangle2(s Step) string {
	return fmt.Sprintf("%s: %s would otherwise hold only %s and the puzzle would have two solutions, so one of %s holds their extra %d, and %s.",
		s.Technique, cellList(s.Cells), digitList(s.Digits), cellList(s.roof), s.setDigits[0], s.outcome())
}

// renderRectangle4 writes a unique rectangle of type 4: in the unit of the
// two roof cells one digit of the pair (setDigits) lies only in them.
func renderRectangle4(s Step) string {
	x := s.setDigits[0]
	o := s.Digits[0]
	if o == x {
		o = s.Digits[1]
	}
	return fmt.Sprintf("%s: %s would otherwise hold only %s and the puzzle would have two solutions; in %s, %d lies only in %s, so one of them is %d, and %d in the other would complete the pattern, so %s.",
		s.Technique, cellList(s.Cells), digitList(s.Digits), unitName(s.Units[0]), x, cellList(s.roof), x, o, s.outcome())
}

// setName names a naked set of n digits.
func setName(n int) string { return [...]string{"", "", "pair", "triple", "quad"}[min(n, 4)] }

func renderRectangle3(s Step) string {
	return fmt.Sprintf("%s: %s would otherwise hold only %s and the puzzle would have two solutions, so one of %s holds another digit, and together with %s they act as a naked %s of %s in %s, so %s.",
		s.Technique, cellList(s.Cells), digitList(s.Digits), cellList(s.roof), cellList(s.set), setName(len(s.setDigits)), digitList(s.setDigits), unitName(s.Units[0]), s.outcome())
}

func renderBUG1(s Step) string {
	return fmt.Sprintf("BUG+1: every unsolved cell but %s has two candidates, and without %d the grid would have several solutions, so %s.", cellList(s.Cells), s.Digits[0], s.outcome())
}

func renderBUG2(s Step) string {
	return fmt.Sprintf("BUG type 2: every unsolved cell but %s has two candidates, and without their %ds the grid would have several solutions, so one of them is %d and %s.", cellList(s.Cells), s.Digits[0], s.Digits[0], s.outcome())
}

func renderBUG3(s Step) string {
	return fmt.Sprintf("BUG type 3: every unsolved cell but %s has two candidates, and without their extra %s the grid would have several solutions, so one of them holds an extra digit, and together with %s they act as a naked %s of %s in %s, so %s.",
		cellList(s.Cells), digitList(s.Digits), cellList(s.set), setName(len(s.setDigits)), digitList(s.setDigits), unitName(s.Units[0]), s.outcome())
}

func renderBUG4(s Step) string {
	return fmt.Sprintf("BUG type 4: every unsolved cell but %s has two candidates, so one of them holds its extra candidate and the other the %d, whose only places in %s they are, so %s.", cellList(s.Cells), s.Digits[0], unitName(s.Units[0]), s.outcome())
}

func renderAPE(s Step) string {
	return fmt.Sprintf("Aligned pair exclusion: of the pairs of values for %s, those that would empty one of the bivalue cells %s they both see are impossible, so %s.", cellList(s.roof), cellList(s.set), s.outcome())
}

// chainPath writes a chain's nodes joined by arrows.
func chainPath(s Step) string {
	path := make([]string, len(s.Chain))
	for i, n := range s.Chain {
		path[i] = nodeName(n)
	}
	return strings.Join(path, " → ")
}

// renderChain writes cycles and forcing chains.
func renderChain(s Step) string {
	return fmt.Sprintf("%s: %s, so %s.", s.Technique, chainPath(s), s.outcome())
}

// renderAIC writes a named chain (nameChain): its two ends share a digit.
func renderAIC(s Step) string {
	a, b := s.Chain[0], s.Chain[len(s.Chain)-1]
	return fmt.Sprintf("%s: %s, so %s or %s is %d and %s.", s.Technique, chainPath(s), cellName(a.Cell), cellName(b.Cell), b.Digit, s.outcome())
}

// renderMulti writes Nishio, cell, region and dynamic forcing chains.
func renderMulti(s Step) string {
	if len(s.Chain) < 2 {
		return fmt.Sprintf("%s: %s.", s.Technique, s.outcome())
	}
	src, dst := s.Chain[0], s.Chain[len(s.Chain)-1]
	var why string
	switch {
	case len(s.Units) > 0:
		why = fmt.Sprintf("each of the %d places for %d in %s leads to %s", s.Branches, src.Digit, unitName(s.Units[0]), nodeName(dst))
	case s.Branches > 1:
		why = fmt.Sprintf("each candidate of %s leads to %s", cellName(src.Cell), nodeName(dst))
	case dst.Cell == src.Cell && dst.Digit == src.Digit:
		why = fmt.Sprintf("assuming %s leads to a contradiction", nodeName(src))
	default:
		why = fmt.Sprintf("both %s and %s lead to %s", nodeName(src), nodeName(Node{src.Candidate, !src.On}), nodeName(dst))
	}
	if slices.Contains(nestedNames[:], s.Technique) {
		return renderNested(s, why)
	}
	return fmt.Sprintf("%s: %s (%d nodes in all), so %s.", s.Technique, why, s.Length, s.outcome())
}

func elimCells(s Step) []int {
	var cs []int
	elim := s.Eliminations
	if s.implied != nil {
		elim = s.implied
	}
	for _, e := range elim {
		cs = append(cs, e.Cell)
	}
	return cs
}
