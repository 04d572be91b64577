package variant

import (
	"fmt"
	"strconv"
)

// Words returns a puzzle's rules written for a solver, one sentence per
// kind of rule it has, in the order of Types, after "Normal Sudoku rules
// apply." (a jigsaw's sentence says the regions replace the boxes). The
// sentences name the shapes as the board draws them (shaded windows, a
// green line, a circle at the bulb's end), so the words and the drawing
// read together; counts and totals are the drawing's. A classic puzzle has
// the one sentence.
func Words(p Puzzle) []string {
	count := map[Type]int{}
	pills, bare := 0, 0
	for _, r := range p.Rules {
		count[r.Type]++
		if r.Type == Arrow && r.Circle == 2 {
			pills++
		}
		if r.Type == Killer && r.Total == nil {
			bare++
		}
	}
	out := []string{"Normal Sudoku rules apply."}
	if count[Jigsaw] > 0 {
		out[0] = "Normal Sudoku rules apply, except that the nine outlined irregular regions replace the 3×3 boxes: each row, column and region holds the digits 1 to 9 once each."
	}
	switch {
	case count[DiagonalPlus] > 0 && count[DiagonalMinus] > 0:
		out = append(out, "Digits may not repeat on either marked diagonal.")
	case count[DiagonalPlus] > 0:
		out = append(out, "Digits may not repeat on the marked diagonal from bottom left to top right.")
	case count[DiagonalMinus] > 0:
		out = append(out, "Digits may not repeat on the marked diagonal from top left to bottom right.")
	}
	for _, t := range Types {
		if count[t] == 0 {
			continue
		}
		if s := sentence(t, count[t], pills, bare); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// sentence is the sentence of rule type t, which the puzzle has n of; ""
// for the types Words writes itself.
func sentence(t Type, n, pills, bare int) string {
	switch t {
	case Killer:
		s := "Digits in a cage do not repeat and sum to the total in its top left corner (" + plural(n, "cage", "cages") + ")."
		if bare > 0 {
			s += " A cage without a total only keeps its digits from repeating."
		}
		return s
	case LittleKiller:
		return "A number outside the grid is the sum of the digits on the diagonal its arrow points along; digits may repeat there (" + plural(n, "clue", "clues") + ")."
	case Sandwich:
		return "A number outside the grid is the sum of the digits between the 1 and the 9 in its row or column (" + plural(n, "clue", "clues") + ")."
	case ExtraRegion:
		return "Each shaded extra region of nine cells holds the digits 1 to 9 once each (" + plural(n, "region", "regions") + ")."
	case Thermo:
		return "Digits along a thermometer increase from the bulb (" + plural(n, "thermometer", "thermometers") + ")."
	case Arrow:
		s := "Digits along an arrow sum to the digit in its circle; digits may repeat on an arrow (" + plural(n, "arrow", "arrows") + ")."
		if pills > 0 {
			s += " A two-cell pill reads as a two-digit number, left to right or top to bottom."
		}
		return s
	}
	return sentences[t]
}

// sentences are the rules whose sentence has no figures.
var sentences = map[Type]string{
	Windoku:        "Each of the four shaded windows holds the digits 1 to 9 once each.",
	Disjoint:       "Cells in the same position of their boxes (the disjoint groups) hold the digits 1 to 9 once each.",
	Asterisk:       "The nine shaded cells of the asterisk hold the digits 1 to 9 once each.",
	CentreDot:      "The nine shaded centre cells of the boxes hold the digits 1 to 9 once each.",
	Girandola:      "The nine shaded cells of the girandola hold the digits 1 to 9 once each.",
	AntiKnight:     "Cells a chess knight's move apart may not hold the same digit.",
	AntiKing:       "Cells a chess king's move apart (touching diagonally too) may not hold the same digit.",
	NonConsecutive: "Cells that share a side may not hold consecutive digits.",
	KropkiNegative: "All possible dots are given: cells that share a side without a dot are neither consecutive nor one double the other.",
	XVNegative:     "All possible X and V are given: cells that share a side without an X or a V sum to neither 10 nor 5.",
	White:          "Cells joined by a white dot hold consecutive digits.",
	Black:          "Cells joined by a black dot hold digits one of which is double the other.",
	X:              "Cells joined by an X sum to 10.",
	V:              "Cells joined by a V sum to 5.",
	Odd:            "A cell with a grey circle holds an odd digit.",
	Even:           "A cell with a grey square holds an even digit.",
	Whispers:       "Neighbouring digits on a green line differ by at least 5.",
	Renban:         "A purple line holds a set of consecutive digits, in any order and without repeats.",
	Palindrome:     "A grey line reads the same from either end.",
}

// plural writes n and the word in its number.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Name names one rule as a solver points at it, for the board's Check
// ("r4c5 breaks the killer cage of 17 in box 5"): its shape, its total and
// where it is.
func Name(r Rule) string {
	first := ""
	if len(r.Cells) > 0 {
		first = r.Cells[0].String()
	}
	total := ""
	if r.Total != nil {
		total = " of " + strconv.Itoa(*r.Total)
	}
	switch r.Type {
	case Killer:
		return "the killer cage" + total + where(r.Cells)
	case LittleKiller:
		return "the little killer clue" + total + " on the diagonal from " + first
	case Sandwich:
		return "the sandwich clue" + total + " in " + lineName(r.Line)
	case Thermo:
		return "the thermometer from " + first
	case Arrow:
		return "the arrow from " + first
	case White, Black, X, V:
		mark := map[Type]string{White: "the white dot", Black: "the black dot", X: "the X", V: "the V"}[r.Type]
		if len(r.Cells) == 2 {
			return mark + " between " + first + " and " + r.Cells[1].String()
		}
		return mark
	case ExtraRegion:
		return "the extra region" + where(r.Cells)
	case Odd:
		return "the odd circle"
	case Even:
		return "the even square"
	case Whispers:
		return "the green whispers line from " + first
	case Renban:
		return "the purple renban line from " + first
	case Palindrome:
		return "the palindrome line from " + first
	}
	return globalName[r.Type]
}

// globalName names the rules without cells.
var globalName = map[Type]string{
	DiagonalPlus: "the rising diagonal", DiagonalMinus: "the falling diagonal",
	Windoku: "the windows", Disjoint: "the disjoint groups", Asterisk: "the asterisk",
	CentreDot: "the centre dots", Girandola: "the girandola", AntiKnight: "the anti-knight rule",
	AntiKing: "the anti-king rule", NonConsecutive: "the non-consecutive rule",
	KropkiNegative: "the rule that all dots are given", XVNegative: "the rule that all X and V are given",
	Jigsaw: "the regions",
}

// where says where a group of cells is: "in box 5" when one box holds
// them all, "at r4c5" (the first cell) otherwise.
func where(cells []Cell) string {
	if len(cells) == 0 {
		return ""
	}
	b := boxOf(cells[0])
	for _, c := range cells[1:] {
		if boxOf(c) != b {
			return " at " + cells[0].String()
		}
	}
	return fmt.Sprintf(" in box %d", b+1)
}

func boxOf(c Cell) int { return c.row()/3*3 + c.col()/3 }

// lineName writes a sandwich's line ("r3") as "row 3".
func lineName(line string) string {
	if len(line) == 2 && line[0] == 'c' {
		return "column " + line[1:]
	}
	if len(line) == 2 {
		return "row " + line[1:]
	}
	return line
}
