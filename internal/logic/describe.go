package logic

// Plain descriptions of the techniques, for people learning them (the
// /techniques pages). Every technique has a sentence of its own (a
// family's sentence on several pages told some of them another
// technique's rule): TestDescriptions holds each one there and distinct.

// Describe returns a plain description of the technique named, "" for a
// name the ladder does not know.
func Describe(name string) string {
	t, ok := TechniqueByName(name)
	if !ok {
		return ""
	}
	return descriptions[t.Name]
}

// descriptions describe each technique.
var descriptions = map[string]string{
	FullHouse:                "The last empty cell of a row, column or box takes the one digit missing there.",
	HiddenSingle:             "Within a row, column or box, a digit has only one cell where it can go.",
	NakedSingle:              "A cell has only one candidate left: every other digit is in its row, column or box.",
	DirectPointing:           "Pointing that at once leaves a digit only one place in a unit, which is placed.",
	DirectClaiming:           "Claiming that at once leaves a digit only one place in a unit, which is placed.",
	DirectHiddenPair:         "A hidden pair whose removals at once leave a single, which is placed.",
	DirectHiddenTriple:       "A hidden triple whose removals at once leave a single, which is placed.",
	Pointing:                 "In a box, a digit's places all lie in one row or column, so it is removed from the rest of that row or column.",
	Claiming:                 "In a row or column, a digit's places all lie in one box, so it is removed from the rest of that box.",
	GeneralizedIntersections: "In a puzzle with extra regions or anti-knight/anti-king rules: a digit's places in a unit are all seen by some other cell, which cannot hold the digit.",
	GeneralizedNakedPair:     "In a puzzle with extra regions or anti-knight/anti-king rules: two cells of a unit hold only the same two digits, so each digit goes from every cell that sees both cells holding it.",
	GeneralizedNakedTriplet:  "In a puzzle with extra regions or anti-knight/anti-king rules: three cells of a unit hold only three digits between them, so each digit goes from every cell that sees all of those cells holding it.",
	GeneralizedNakedQuad:     "In a puzzle with extra regions or anti-knight/anti-king rules: four cells of a unit hold only four digits between them, so each digit goes from every cell that sees all of those cells holding it.",
	NakedPair:                "Two cells of a unit hold the same two candidates only: those two digits are removed from the rest of the unit.",
	NakedTriple:              "Three cells of a unit hold between them only three digits: those digits are removed from the rest of the unit.",
	NakedQuad:                "Four cells of a unit hold between them only four digits: those digits are removed from the rest of the unit.",
	HiddenPair:               "Two digits fit only the same two cells of a unit: every other candidate is removed from those cells.",
	HiddenTriple:             "Three digits fit only three cells of a unit: every other candidate is removed from those cells.",
	HiddenQuad:               "Four digits fit only four cells of a unit: every other candidate is removed from those cells.",
	XWing:                    "A digit fits only two places in each of two rows, and they lie in the same two columns: the digit is removed from the rest of those columns (or the same with rows and columns swapped).",
	Swordfish:                "An X-Wing over three rows and three columns.",
	Jellyfish:                "An X-Wing over four rows and four columns.",
	XYWing:                   "A cell with candidates XY sees two cells XZ and YZ: whichever it is, one of them is Z, so Z is removed from the cells that see both.",
	XYZWing:                  "An XY-Wing whose pivot also holds Z: Z is removed from the cells that see all three.",
	WXYZWing:                 "Four cells holding four digits between them, only one of which is shared by cells that do not see each other: that digit is removed from the cells that see every cell holding it.",
	VWXYZWing:                "A WXYZ-Wing of five cells and five digits.",
	UniqueRectangle1:         "Four cells at the corners of a rectangle over two rows, two columns and two boxes, three of them holding only the same two digits: the fourth cannot take either, or the puzzle would have two solutions, so both are removed from it.",
	UniqueRectangle2:         "A rectangle of four cells over two boxes that would hold only the same two digits but for one extra digit in two of them, the same in both: one of those two holds the extra digit, so cells that see both lose it.",
	UniqueRectangle3:         "A rectangle of four cells over two boxes that would hold only the same two digits but for extra digits in two of them sharing a unit: one of the two holds an extra, so together they act as one cell holding the extras in a naked set with other cells of that unit.",
	UniqueRectangle4:         "A rectangle of four cells over two boxes that would hold only the same two digits but for extras in two of them: when one digit of the pair lies only in those two cells in a unit they share, one of them holds it, so the pair's other digit is removed from both.",
	BUG2:                     "Every unsolved cell but a few has two candidates, and the few share one extra digit: without it the grid would have several solutions, so one of them holds it, and cells that see them all lose it.",
	BUG3:                     "Every unsolved cell but a few of one unit has two candidates: one of the few holds an extra digit, so together they act as one cell holding the extras, in a naked set with other cells of the unit.",
	BUG4:                     "Every unsolved cell but two of one unit has two candidates, each of the two with one extra: one of them takes its extra, and when a digit both keep has no other place in the unit the other takes that digit, so each loses the digit it keeps besides.",
	UVWXYZWing:               "A WXYZ-Wing of six cells and six digits.",
	GroupedTurbot:            "Two strong links on one digit, one of them grouped (the digit's places in a box lie in one row or column, as in an empty rectangle), joined by cells that see each other: one of the two far ends holds the digit, so cells that see both lose it.",
	ThreeStrongLinks:         "Three strong links on one digit (in each of three units it has only two places), chained end to end by cells that see each other: one of the two far ends of the chain holds the digit, so cells that see both ends lose it.",
	FourStrongLinks:          "Four strong links on one digit, chained end to end by cells that see each other, one link longer than 3 Strong Links: one of the two far ends holds the digit, so cells that see both lose it.",
	BUG1:                     "Every unsolved cell but one has two candidates: that cell must take the digit that would otherwise leave the puzzle with two solutions.",
	Skyscraper:               "Two rows (or two columns) where a digit has only two places, one of them in line: one of the two other places holds the digit, so cells that see both lose it.",
	TwoStringKite:            "A row and a column where a digit has only two places, one of each meeting in a box: one of the two far ends holds the digit, so a cell that sees both loses it.",
	TurbotFish:               "Two strong links on a digit, one of them in a box, joined by cells that see each other: one of the two far ends holds the digit, so cells that see both lose it.",
	AlignedPairExclusion:     "Two cells that see each other: any pair of digits for them that would empty a cell seeing both is impossible, which can remove candidates.",
	SimpleColouring:          "Colour a digit's strong links in two colours: one colour is true; a cell that sees both colours cannot hold the digit.",
	XChain:                   "A chain of strong and weak links on one digit: either end is true, so cells that see both ends lose the digit.",
	XYChain:                  "A chain through cells with two candidates each: either end holds the digit, so cells that see both ends lose it.",
	WWing:                    "Two cells with the same two candidates, joined by a strong link on one of them: cells that see both lose the other digit.",
	XCycle:                   "A closed loop of links on one digit: the weak links of the loop become strong, removing the digit from cells they see.",
	YCycle:                   "A closed loop through cells with two candidates: candidates seeing both ends of a weak link are removed.",
	XYCycle:                  "A closed loop of links on several digits: candidates outside the loop that it rules out are removed.",
	ForcingXChain:            "Supposing a candidate true leads, along links on one digit, to a contradiction: it is false.",
	ForcingChain:             "Supposing a candidate true leads, along links, to a contradiction: it is false.",
	Nishio:                   "Supposing a digit in a cell leads to a contradiction within that digit's places: the digit is removed.",
	CellForcingChain:         "Every candidate of one cell leads to the same conclusion, so it is true whichever the cell holds.",
	RegionForcingChain:       "Every place of a digit in a unit leads to the same conclusion, so it is true wherever the digit goes.",
	DynamicForcingChain:      "Forcing chains that also use what earlier links of the chain have settled.",
	DynamicForcingChainPlus:  "Dynamic forcing chains that also use pointing, claiming, pairs and X-Wings inside the chains.",
	NestedForcingChain:       "Dynamic forcing chains that, where their links run out, look for a whole forcing chain on the board their assumption has made, and go on with what it removes.",
	NestedMultipleChain:      "Nested forcing chains that also look for cell and region forcing chains on the board their assumption has made.",
	NestedDynamicChain:       "Nested forcing chains that look for whole dynamic forcing chains on the board their assumption has made.",
}
