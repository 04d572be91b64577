package logic

// Sukaku Explainer's variant mode (Settings.initVariants, at commit
// 362854e) swaps two families of the classic ladder for generalised ones
// that read every peer a cell has, the extra houses' and the anti-knight's
// and anti-king's included:
//
//   - Pointing and Claiming give way to Generalized Intersections (VLocking,
//     2.9, tried where Pointing/Claiming were): a digit's 2-6 places in one
//     house are all seen by cells outside them, which lose the digit.
//   - Naked Pair, Triple and Quad give way to Generalized Naked Pair,
//     Triplet and Quad (NakedSetGen, 3.0, 3.6, 5.0, each tried where its
//     classic one was): n cells of one house holding n digits between them;
//     each digit goes from the cells that see every one of the n cells
//     holding it. Its Quintuplet (5.6) and Sextuplet (6.5) are off in
//     variant mode by default, so they are not on the ladder.
//
// Variant mode is a geometry with extra houses or extra peers
// (geometry.variant). A classic grid, and a jigsaw (whose houses are rows,
// columns and regions only, which Sukaku Explainer does not rate), never
// has it: their rungs are the classic ones and their paths do not change
// (TestGeneralizedClassicOff, TestPaths, TestGolden).

// seRegionOrder lists the houses in Sukaku Explainer's order of region
// types (boxes, rows, columns, disjoint groups, windows, the diagonals,
// girandola, asterisk, centre dot), columns before rows when columnsFirst
// (NakedSetGen's order), each type a group: only the extra houses g has.
func (g *geometry) seRegionOrder(columnsFirst bool) [][]int {
	span := func(from, n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = from + i
		}
		return out
	}
	rows, cols := span(0, 9), span(9, 9)
	if columnsFirst {
		rows, cols = cols, rows
	}
	out := [][]int{span(18, 9), rows, cols}
	for _, t := range [][]int{span(houseDisjoint, 9), span(houseWindow, 9), {houseDiagMinus}, {houseDiagPlus}, {houseGirandola}, {houseAsterisk}, {houseCentreDot}} {
		if g.has(t[0]) {
			out = append(out, t)
		}
	}
	return out
}

// has reports whether house u is one of g's (a primary or extra house).
func (g *geometry) has(u int) bool {
	if u < 27 {
		return true
	}
	for _, e := range g.extras {
		if e == u {
			return true
		}
	}
	return false
}
