package logic

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/variant"
)

// The generalised techniques have no published example with Sukaku
// Explainer's rules: each row is a step of the path of a puzzle of
// testdata/variant_se.txt (made here, CC0; its shape's rules), the first
// of its technique on the set's paths, or the second when that one is
// simpler to read.
func init() {
	examples = append(examples,
		example{technique: GeneralizedIntersections, source: "testdata/variant_se.txt, --isWindows=1",
			rules:  []variant.Type{variant.Windoku},
			givens: "....5..9.............4....1.....31.......2.38.69....2..1.........5.4.......2.....", want: "r1c6<>1"},
		example{technique: GeneralizedNakedPair, source: "testdata/variant_se.txt, --isWindows=1",
			rules:  []variant.Type{variant.Windoku},
			givens: "....8.91..1.5.4.6..................5....4....2.5........7.3.....8.....59......3..", want: "r2c5<>7"},
		example{technique: GeneralizedNakedTriplet, source: "testdata/variant_se.txt, --isAsterisk=1",
			rules:  []variant.Type{variant.Asterisk},
			givens: "...61..4..8.7....3......1......248....31.......2....9.1..5......5.......7.8...96.", want: "r1c6<>9 r2c6<>9 r3c3<>9 r3c6<>9 r6c5<>3 r7c5<>9 r8c5<>9"},
		example{technique: GeneralizedNakedQuad, source: "testdata/variant_se.txt, --isAntiKnight=1",
			rules:  []variant.Type{variant.AntiKnight},
			givens: "3..521..........9..........8.....16................3......7.5............3..86...", want: "r5c3<>4 r5c7<>4 r6c6<>4"},
	)
}

// solveExample is the path of ex's givens: GradeVariant's when ex has
// rules, else Solve's.
func solveExample(t *testing.T, ex example) (Result, error) {
	if ex.rules == nil {
		return Solve(parse(t, ex.givens), Options{})
	}
	p := variant.Puzzle{Givens: parse(t, ex.givens)}
	for _, ty := range ex.rules {
		p.Rules = append(p.Rules, variant.Rule{Type: ty})
	}
	return GradeVariant(p, Options{})
}

// TestGeneralizedClassicOff: the generalised rungs run only in Sukaku
// Explainer's variant mode (extra houses or peers). The classic geometry
// and a jigsaw never have it, so their ladders are the classic one (the
// rungs the generalised ones replace run there, the generalised never)
// and their paths do not change (TestPaths, TestGolden); every fixed
// shape has it, and there Pointing, Claiming and the Naked Pair, Triple
// and Quad give way.
func TestGeneralizedClassicOff(t *testing.T) {
	jig := variantGeo(t, variant.Rule{Type: variant.Jigsaw, Regions: "111222333111222333111222333444555666444555666444555666777888999777888999777888999"})
	for _, g := range []*geometry{classicGeo, jig} {
		if g.variant {
			t.Errorf("classic or jigsaw geometry in variant mode")
		}
	}
	for _, ty := range []variant.Type{variant.DiagonalMinus, variant.Windoku, variant.Disjoint, variant.Asterisk, variant.CentreDot, variant.Girandola, variant.AntiKnight, variant.AntiKing} {
		if g := variantGeo(t, variant.Rule{Type: ty}); !g.variant {
			t.Errorf("%s: not in variant mode", ty)
		}
	}
	for _, r := range ladder {
		for _, tc := range r.techniques {
			gen := r.on == variantMode
			if gen != (len(tc.name) > 11 && tc.name[:11] == "Generalized") {
				t.Errorf("%s: on variant mode only is %v", tc.name, gen)
			}
			if r.on.runsOn(classicGeo) == gen {
				t.Errorf("%s: runs on the classic geometry is %v", tc.name, !gen)
			}
		}
	}
}

// variantGeo is the geometry of a puzzle with the one rule r.
func variantGeo(t *testing.T, r variant.Rule) *geometry {
	g, err := variantGeometry(variant.Puzzle{Rules: []variant.Rule{r}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
