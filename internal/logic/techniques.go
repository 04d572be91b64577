package logic

import (
	"math"
)

// The technique table: every technique's name, grade, finder and sentence
// are declared here once, in the ladder's order. The solver tries the rungs
// in this order, the finders take their grades from it (gradeOf, topOf),
// Step.render takes the sentence from it, and the tables of the package
// documentation and of docs/engine.md are generated from it
// (TestTechniqueDocs; -update rewrites them).

// Technique names, as Step.Technique and Result.Technique carry them.
const (
	FullHouse                = "Full House"
	HiddenSingle             = "Hidden Single"
	DirectPointing           = "Direct Pointing"
	DirectClaiming           = "Direct Claiming"
	DirectHiddenPair         = "Direct Hidden Pair"
	NakedSingle              = "Naked Single"
	DirectHiddenTriple       = "Direct Hidden Triple"
	Pointing                 = "Pointing"
	Claiming                 = "Claiming"
	GeneralizedIntersections = "Generalized Intersections"
	NakedPair                = "Naked Pair"
	GeneralizedNakedPair     = "Generalized Naked Pair"
	GeneralizedNakedTriplet  = "Generalized Naked Triplet"
	GeneralizedNakedQuad     = "Generalized Naked Quad"
	XWing                    = "X-Wing"
	HiddenPair               = "Hidden Pair"
	NakedTriple              = "Naked Triple"
	Swordfish                = "Swordfish"
	HiddenTriple             = "Hidden Triple"
	Skyscraper               = "Skyscraper"
	TwoStringKite            = "2-String Kite"
	TurbotFish               = "Turbot Fish"
	GroupedTurbot            = "Grouped Turbot Fish"
	ThreeStrongLinks         = "3 Strong Links"
	FourStrongLinks          = "4 Strong Links"
	XYWing                   = "XY-Wing"
	XYZWing                  = "XYZ-Wing"
	UniqueRectangle1         = "Unique Rectangle Type 1"
	UniqueRectangle2         = "Unique Rectangle Type 2"
	UniqueRectangle3         = "Unique Rectangle Type 3"
	UniqueRectangle4         = "Unique Rectangle Type 4"
	NakedQuad                = "Naked Quad"
	Jellyfish                = "Jellyfish"
	HiddenQuad               = "Hidden Quad"
	WXYZWing                 = "WXYZ-Wing"
	BUG1                     = "BUG+1"
	BUG2                     = "BUG Type 2"
	BUG3                     = "BUG Type 3"
	BUG4                     = "BUG Type 4"
	VWXYZWing                = "VWXYZ-Wing"
	UVWXYZWing               = "UVWXYZ-Wing"
	AlignedPairExclusion     = "Aligned Pair Exclusion"
	XCycle                   = "Bidirectional X-Cycle"
	YCycle                   = "Bidirectional Y-Cycle"
	XYCycle                  = "Bidirectional Cycle"
	ForcingXChain            = "Forcing X-Chain"
	SimpleColouring          = "Simple Colouring"
	XChain                   = "X-Chain"
	XYChain                  = "XY-Chain"
	WWing                    = "W-Wing"
	ForcingChain             = "Forcing Chain"
	Nishio                   = "Nishio Forcing Chain"
	CellForcingChain         = "Cell Forcing Chains"
	RegionForcingChain       = "Region Forcing Chains"
	DynamicForcingChain      = "Dynamic Forcing Chains"
	DynamicForcingChainPlus  = "Dynamic Forcing Chains (+)"
	NestedForcingChain       = "Dynamic Forcing Chains (+ Forcing Chains)"
	NestedMultipleChain      = "Dynamic Forcing Chains (+ Multiple Forcing Chains)"
	NestedDynamicChain       = "Dynamic Forcing Chains (+ Dynamic Forcing Chains)"
)

// rung is one rung of the ladder: a finder and the techniques it gives.
type rung struct {
	find       func(*solver) (Step, bool)
	file       string // the file holding the finder
	techniques []technique
	base       float64 // the lowest grade of its techniques: Floor's bound when it is the next rung (init)
	// on says which geometries the rung reasons soundly on (runsOn).
	on geoNeed
}

// geoNeed is the geometries a rung runs on.
type geoNeed uint8

const (
	// anyGeo: the finder reads the board's geometry (its houses and
	// peers), or only rows and columns, which every geometry has.
	anyGeo geoNeed = iota
	// boxGeo: the finder still reads the classic tables (rows, columns,
	// boxes and their peers); that is sound whenever the boxes are houses
	// (no jigsaw), and finds less than the rules allow when there are
	// extra houses or peers.
	boxGeo
	// classicGeoOnly: uniqueness. Its patterns assume a deadly pattern's
	// digits can swap, which a diagonal, a window, an anti-knight or a
	// jigsaw region can forbid (so the pattern is no longer deadly and the
	// step would be wrong): only for rows, columns and boxes.
	classicGeoOnly
	// classicMode: the classic rungs Sukaku Explainer's variant mode swaps
	// for generalised ones (generalized.go, intersections.go, subsets.go): off on a geometry with extra
	// houses or peers (geometry.variant).
	classicMode
	// variantMode: the generalised rungs, only on such a geometry.
	variantMode
)

// runsOn reports whether a rung of need n reasons soundly on g.
func (n geoNeed) runsOn(g *geometry) bool {
	switch n {
	case anyGeo:
		return true
	case boxGeo:
		return g.boxes
	case classicGeoOnly:
		return g.classic
	case classicMode:
		return !g.variant
	case variantMode:
		return g.variant
	}
	return true
}

// replaced reports whether a rung of need n left out is replaced by
// another (Sukaku Explainer's variant mode) rather than unsound: such a
// rung does not bound the grade (Floor).
func (n geoNeed) replaced() bool { return n == classicMode || n == variantMode }

// technique is one row of the table.
type technique struct {
	name  string
	grade float64 // its grade; the lowest when it varies
	top   float64 // when not 0: the highest, the grade varying in tenths between (see note)
	chain bool    // a chain: grade is its type's base, plus the length bonus (chainGrade)
	// note says what the grade depends on (and a line of the docs).
	note   string
	render func(Step) string // the step's sentence
}

// techByName finds a technique's row by its name (init).
var techByName = map[string]*technique{}

// ladder is the technique table, easiest rung first, in Sudoku Explainer's
// order: the first rung that finds a step gives the step (see doc.go).
var ladder = []rung{
	{find: (*solver).singles, file: "singles.go", techniques: []technique{
		{name: FullHouse, grade: 1.0, render: renderFullHouse},
		{name: HiddenSingle, grade: 1.2, top: 1.5, note: "the lower grade in a box, the higher in a row or column", render: renderHiddenSingle},
	}},
	{find: func(s *solver) (Step, bool) { return s.locking(true) }, file: "intersections.go", techniques: []technique{
		{name: DirectPointing, grade: 1.7, note: "pointing that leaves a hidden single: only the single is placed", render: renderLocking},
		{name: DirectClaiming, grade: 1.9, note: "claiming that leaves a hidden single: only the single is placed", render: renderLocking},
	}},
	{find: func(s *solver) (Step, bool) { return s.hiddenSet(2, true) }, file: "subsets.go", techniques: []technique{
		{name: DirectHiddenPair, grade: 2.0, note: "leaves a hidden single: only the single is placed", render: renderDirectHiddenSet},
	}},
	{find: (*solver).nakedSingle, file: "singles.go", techniques: []technique{
		{name: NakedSingle, grade: 2.3, render: renderNakedSingle},
	}},
	{find: func(s *solver) (Step, bool) { return s.hiddenSet(3, true) }, file: "subsets.go", techniques: []technique{
		{name: DirectHiddenTriple, grade: 2.5, note: "leaves a hidden single: only the single is placed", render: renderDirectHiddenSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.locking(false) }, file: "intersections.go", on: classicMode, techniques: []technique{
		{name: Pointing, grade: 2.6, render: renderLocking},
		{name: Claiming, grade: 2.8, render: renderLocking},
	}},
	{find: (*solver).generalIntersection, file: "intersections.go", on: variantMode, techniques: []technique{
		{name: GeneralizedIntersections, grade: 2.9, note: "variant mode only (extra houses or peers), in place of Pointing and Claiming", render: renderGeneralIntersection},
	}},
	{find: func(s *solver) (Step, bool) { return s.nakedSet(2) }, file: "subsets.go", on: classicMode, techniques: []technique{
		{name: NakedPair, grade: 3.0, render: renderNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.generalNakedSet(2) }, file: "subsets.go", on: variantMode, techniques: []technique{
		{name: GeneralizedNakedPair, grade: 3.0, note: "variant mode only, in place of Naked Pair", render: renderGeneralNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.fish(2) }, file: "fish.go", techniques: []technique{
		{name: XWing, grade: 3.2, render: renderFish},
	}},
	{find: func(s *solver) (Step, bool) { return s.hiddenSet(2, false) }, file: "subsets.go", techniques: []technique{
		{name: HiddenPair, grade: 3.4, render: renderHiddenSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.nakedSet(3) }, file: "subsets.go", on: classicMode, techniques: []technique{
		{name: NakedTriple, grade: 3.6, render: renderNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.generalNakedSet(3) }, file: "subsets.go", on: variantMode, techniques: []technique{
		{name: GeneralizedNakedTriplet, grade: 3.6, note: "variant mode only, in place of Naked Triple", render: renderGeneralNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.fish(3) }, file: "fish.go", techniques: []technique{
		{name: Swordfish, grade: 3.8, render: renderFish},
	}},
	{find: func(s *solver) (Step, bool) { return s.hiddenSet(3, false) }, file: "subsets.go", techniques: []technique{
		{name: HiddenTriple, grade: 4.0, render: renderHiddenSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.strongLinks(2) }, file: "strong.go", on: boxGeo, techniques: []technique{
		{name: Skyscraper, grade: 4.0, note: "two strong links, both rows or both columns", render: renderLinks},
		{name: TwoStringKite, grade: 4.1, note: "two strong links, a row and a column", render: renderLinks},
		{name: TurbotFish, grade: 4.1, note: "two strong links, one in a box", render: renderLinks},
		{name: GroupedTurbot, grade: 4.3, note: "two strong links, one grouped (an empty rectangle, a line in two boxes)", render: renderLinks},
	}},
	{find: func(s *solver) (Step, bool) { return s.xyWing(false) }, file: "wings.go", techniques: []technique{
		{name: XYWing, grade: 4.2, render: renderWing},
	}},
	{find: func(s *solver) (Step, bool) { return s.xyWing(true) }, file: "wings.go", techniques: []technique{
		{name: XYZWing, grade: 4.4, render: renderWing},
	}},
	{find: (*solver).uniqueRectangles, file: "uniqueness.go", on: classicGeoOnly, techniques: []technique{
		{name: UniqueRectangle1, grade: 4.5, render: renderRectangle},
		{name: UniqueRectangle2, grade: 4.5, render: renderRectangle2},
		{name: UniqueRectangle4, grade: 4.5, render: renderRectangle4},
	}},
	{find: (*solver).urType3, file: "uniqueness.go", on: classicGeoOnly, techniques: []technique{
		{name: UniqueRectangle3, grade: 4.6, top: 4.8, note: "0.1 more for each cell of the naked set past the first", render: renderRectangle3},
	}},
	{find: func(s *solver) (Step, bool) { return s.nakedSet(4) }, file: "subsets.go", on: classicMode, techniques: []technique{
		{name: NakedQuad, grade: 5.0, render: renderNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.generalNakedSet(4) }, file: "subsets.go", on: variantMode, techniques: []technique{
		{name: GeneralizedNakedQuad, grade: 5.0, note: "variant mode only, in place of Naked Quad", render: renderGeneralNakedSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.fish(4) }, file: "fish.go", techniques: []technique{
		{name: Jellyfish, grade: 5.2, render: renderFish},
	}},
	{find: func(s *solver) (Step, bool) { return s.hiddenSet(4, false) }, file: "subsets.go", techniques: []technique{
		{name: HiddenQuad, grade: 5.4, render: renderHiddenSet},
	}},
	{find: func(s *solver) (Step, bool) { return s.strongLinks(3) }, file: "strong.go", on: boxGeo, techniques: []technique{
		{name: ThreeStrongLinks, grade: 5.4, top: 5.7, note: "Sukaku Explainer's rating, by the links' kinds (strong.go)", render: renderLinks},
	}},
	{find: func(s *solver) (Step, bool) { return s.alsWing(3) }, file: "wings.go", techniques: []technique{
		{name: WXYZWing, grade: 5.5, top: 5.6, note: "Sukaku Explainer's rating, by the largest set cell", render: renderWing},
	}},
	{find: (*solver).bug, file: "uniqueness.go", on: classicGeoOnly, techniques: []technique{
		{name: BUG1, grade: 5.6, render: renderBUG1},
		{name: BUG2, grade: 5.7, render: renderBUG2},
		{name: BUG3, grade: 5.8, top: 6.2, note: "5.7 and 0.1 for each digit of the naked set past the first, as Sukaku Explainer's Bug3Hint", render: renderBUG3},
		{name: BUG4, grade: 5.7, render: renderBUG4},
	}},
	{find: func(s *solver) (Step, bool) { return s.strongLinks(4) }, file: "strong.go", on: boxGeo, techniques: []technique{
		{name: FourStrongLinks, grade: 5.8, top: 6.1, note: "Sukaku Explainer's rating, by the links' kinds (strong.go)", render: renderLinks},
	}},
	{find: func(s *solver) (Step, bool) { return s.alsWing(4) }, file: "wings.go", techniques: []technique{
		{name: VWXYZWing, grade: 6.2, top: 6.4, note: "Sukaku Explainer's rating, by the largest set cell", render: renderWing},
	}},
	{find: (*solver).ape, file: "exclusion.go", techniques: []technique{
		{name: AlignedPairExclusion, grade: 6.2, render: renderAPE},
	}},
	{find: func(s *solver) (Step, bool) { return s.alsWing(5) }, file: "wings.go", techniques: []technique{
		{name: UVWXYZWing, grade: 6.6, note: "Sukaku Explainer's rating", render: renderWing},
	}},
	{find: (*solver).unaryChains, file: "chains_unary.go", on: boxGeo, techniques: []technique{
		{name: XCycle, grade: 6.5, chain: true, render: renderChain},
		{name: YCycle, grade: 6.5, chain: true, render: renderChain},
		{name: ForcingXChain, grade: 6.6, chain: true, render: renderChain},
		{name: SimpleColouring, grade: 6.6, chain: true, note: "a Forcing X-Chain named by its links (chains_named.go)", render: renderAIC},
		{name: XChain, grade: 6.6, chain: true, note: "a Forcing X-Chain named by its links (chains_named.go)", render: renderAIC},
		{name: XYCycle, grade: 7.0, chain: true, render: renderChain},
		{name: ForcingChain, grade: 7.0, chain: true, note: "X- and Y-links", render: renderChain},
		{name: XYChain, grade: 7.0, chain: true, note: "a Forcing Chain named by its links (chains_named.go)", render: renderAIC},
		{name: WWing, grade: 7.0, chain: true, note: "a Forcing Chain named by its links (chains_named.go)", render: renderAIC},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeNishio) }, file: "chains_multi.go", on: boxGeo, techniques: []technique{
		{name: Nishio, grade: 7.5, chain: true, note: "X-links, dynamic, contradictions", render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeMultiple) }, file: "chains_multi.go", on: boxGeo, techniques: []technique{
		{name: CellForcingChain, grade: 8.0, chain: true, note: "static; every branch agrees", render: renderMulti},
		{name: RegionForcingChain, grade: 8.0, chain: true, note: "static; every branch agrees", render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeDynamic) }, file: "chains_multi.go", on: boxGeo, techniques: []technique{
		{name: DynamicForcingChain, grade: 8.5, chain: true, render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeDynamicPlus) }, file: "chains_multi.go", on: boxGeo, techniques: []technique{
		{name: DynamicForcingChainPlus, grade: 9.0, chain: true, note: "pointing, claiming, pairs and X-Wing inside the chains", render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeNested2) }, file: "chains_nested.go", on: boxGeo, techniques: []technique{
		{name: NestedForcingChain, grade: 9.5, chain: true, note: "nested: forcing chains inside, their length added", render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeNested3) }, file: "chains_nested.go", on: boxGeo, techniques: []technique{
		{name: NestedMultipleChain, grade: 10.0, chain: true, note: "nested: cell and region forcing chains inside too", render: renderMulti},
	}},
	{find: func(s *solver) (Step, bool) { return s.multiChains(modeNested4) }, file: "chains_nested.go", on: boxGeo, techniques: []technique{
		{name: NestedDynamicChain, grade: 10.5, chain: true, note: "nested: dynamic forcing chains inside", render: renderMulti},
	}},
}

// init indexes the table by name and sets each rung's base.
func init() {
	for i := range ladder {
		r := &ladder[i]
		r.base = math.Inf(1)
		for j := range r.techniques {
			t := &r.techniques[j]
			if techByName[t.name] != nil {
				panic("logic: technique " + t.name + " declared twice")
			}
			techByName[t.name] = t
			r.base = min(r.base, t.grade)
		}
	}
	if ladder[nMemo].file != "chains_unary.go" {
		panic("logic: nMemo is not the first chain rung")
	}
}

// gradeOf is the grade of the technique named (its lowest when it varies).
func gradeOf(name string) float64 { return techByName[name].grade }

// topOf is the highest grade of a technique whose grade varies within a range.
func topOf(name string) float64 { return techByName[name].top }

// tenths is a grade in tenths, rounded.
func tenths(g float64) int { return int(g*10 + 0.5) }

// fromTenths is the grade of t tenths.
func fromTenths(t int) float64 { return float64(t) / 10 }
