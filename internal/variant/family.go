package variant

import "slices"

// families maps each rule type to the short name of its variant, the
// names the archive lists and filters by (docs/api.md's variant): the two
// diagonals are X sudoku, the dots and their negative rule kropki, and so
// on.
var families = map[Type]string{
	DiagonalPlus: "x", DiagonalMinus: "x", Windoku: "windoku",
	Disjoint: "disjoint-groups", Asterisk: "asterisk", CentreDot: "centre-dot",
	Girandola: "girandola", AntiKnight: "anti-knight", AntiKing: "anti-king",
	NonConsecutive: "non-consecutive", Jigsaw: "jigsaw", Killer: "killer",
	LittleKiller: "little-killer", Sandwich: "sandwich", Thermo: "thermo",
	Arrow: "arrow", White: "kropki", Black: "kropki", KropkiNegative: "kropki",
	X: "xv", V: "xv", XVNegative: "xv", Odd: "odd-even", Even: "odd-even",
	Whispers: "whispers", Renban: "renban", Palindrome: "palindrome",
	ExtraRegion: "extra-region",
}

// Family returns the short name of the variant a rule type belongs to
// ("kropki" for white, black and kropkinegative), "" for an unknown type.
func (t Type) Family() string { return families[t] }

// Families lists the short names of p's variants, sorted and once each
// (nil for a classic puzzle).
func Families(p Puzzle) []string {
	var out []string
	for _, r := range p.Rules {
		out = append(out, r.Type.Family())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// FamilyNames lists every short name, sorted: what a filter may ask for.
func FamilyNames() []string {
	var out []string
	for _, f := range families {
		out = append(out, f)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
