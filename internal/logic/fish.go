package logic

import "math/bits"

// fishNames names the fish by size.
var fishNames = [5]string{2: XWing, 3: Swordfish, 4: Jellyfish}

// fish finds n rows (or columns) whose places for a digit lie in n columns
// (rows): the digit is removed from the rest of those columns (rows).
func (s *solver) fish(n int) (Step, bool) {
	b := &s.b
	for d := 1; d <= 9; d++ {
		if !s.changedDigit(d) {
			continue // only d's candidates matter
		}
		for kind := 0; kind < 2; kind++ {
			var pos [9]uint16
			var open uint16
			for i := range 9 {
				pos[i] = b.positions(kind*9+i, d)
				if k := popcount(pos[i]); k >= 2 && k <= n {
					open |= 1 << i
				}
			}
			var st Step
			if combos(open, n, func(lines uint16) bool {
				var cover uint16
				for m := lines; m != 0; m &= m - 1 {
					cover |= pos[bits.TrailingZeros16(m)]
				}
				if popcount(cover) != n {
					return false
				}
				var elim []Candidate
				var cells []int
				var units, covers []int
				for m := cover; m != 0; m &= m - 1 {
					cu := (1-kind)*9 + bits.TrailingZeros16(m)
					covers = append(covers, cu)
					for j, c := range b.g.cells[cu] {
						if !b.has(c, d) {
							continue
						}
						if lines&(1<<j) != 0 {
							cells = append(cells, c)
						} else {
							elim = append(elim, Candidate{c, d})
						}
					}
				}
				if len(elim) == 0 {
					return false
				}
				for m := lines; m != 0; m &= m - 1 {
					units = append(units, kind*9+bits.TrailingZeros16(m))
				}
				st = Step{Technique: fishNames[n], Grade: gradeOf(fishNames[n]), Cells: cells, Eliminations: elim,
					Units: append(units, covers...), Digits: []int{d}}
				return true
			}) {
				return st, true
			}
		}
	}
	return Step{}, false
}
