// The forcing chains named by their middle: Simple Colouring, X-Chain,
// XY-Chain, W-Wing (nameChain).

package logic

// nameChain renames a forcing chain that assumes a candidate and reaches its
// removal through two other cells holding the digit: Z=x → A≠x → … → B=x →
// Z≠x. Its middle, A≠x → … → B=x, is an alternating inference chain: A or B
// is x, so x goes from every cell seeing both (Z among them). By its links
// the middle is a Simple Colouring trap (one digit, conjugate pairs only),
// an X-Chain (one digit), a W-Wing (bivalue cells A and B holding x and y,
// joined by a conjugate pair of y), an XY-Chain (every strong link inside a
// bivalue cell) or otherwise stays a forcing chain. The grade stays the
// chain's, which is how Sudoku Explainer rates the same deduction.
func (s *solver) nameChain(st *Step, path []int32) {
	n := len(path)
	if n < 6 || !nodeOn(path[0]) || nodeOn(path[n-1]) {
		return
	}
	z, x := nodeCell(path[0]), nodeDigit(path[0])
	inner := path[1 : n-1]
	first, last := inner[0], inner[len(inner)-1]
	if nodeOn(first) || !nodeOn(last) || nodeDigit(first) != x || nodeDigit(last) != x ||
		nodeCell(first) == z || nodeCell(last) == z || nodeCell(first) == nodeCell(last) {
		return
	}
	a, b := nodeCell(first), nodeCell(last)
	name := s.chainName(inner, x)
	if name == "" {
		return
	}
	var elim []Candidate
	s.b.g.sees[a].and(s.b.g.sees[b]).and(s.dcells[x]).each(func(c int) { elim = append(elim, Candidate{c, x}) })
	st.Technique = name
	st.Placements = nil
	st.Eliminations = elim
	st.Chain = make([]Node, len(inner))
	for i, id := range inner {
		st.Chain[i] = toNode(id)
	}
	st.Cells = pathCells(inner)
	st.Digits = []int{x}
}

// isWWing: A≠x → A=y → P≠y → Q=y → B≠y → B=x with A and B bivalue.
func (s *solver) isWWing(in []int32) bool {
	a, b := nodeCell(in[0]), nodeCell(in[5])
	y := nodeDigit(in[1])
	return nodeCell(in[1]) == a && nodeCell(in[4]) == b &&
		nodeDigit(in[2]) == y && nodeDigit(in[3]) == y && nodeDigit(in[4]) == y &&
		nodeCell(in[2]) != nodeCell(in[3]) && s.b.cand[a] == s.b.cand[b] && popcount(s.b.cand[a]) == 2
}

// chainName names the alternating inference chain inner on digit x by its
// links, or "" when it is none of the named kinds.
func (s *solver) chainName(inner []int32, x int) string {
	oneDigit, conjugateOnly, yStrong := true, true, true
	for i := 0; i+1 < len(inner); i++ {
		p, q := inner[i], inner[i+1]
		sameCell := nodeCell(p) == nodeCell(q)
		if nodeDigit(p) != x || nodeDigit(q) != x {
			oneDigit = false
		}
		if !sameCell && !s.strong[nodeDigit(p)][nodeCell(p)].has(nodeCell(q)) {
			conjugateOnly = false
		}
		if !nodeOn(p) && !sameCell { // a strong link between cells
			yStrong = false
		}
	}
	switch {
	case oneDigit && conjugateOnly:
		return SimpleColouring
	case oneDigit:
		return XChain
	case len(inner) == 6 && s.isWWing(inner):
		return WWing
	case yStrong:
		return XYChain
	}
	return ""
}
