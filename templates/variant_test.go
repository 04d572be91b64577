package templates

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// variantPuzzles reads the variant engine's test puzzles by name.
func variantPuzzles(t *testing.T) map[string]variant.Puzzle {
	t.Helper()
	return varianttest.Puzzles(t)
}

// variantRecord rates a test puzzle as the archive would keep it.
func variantRecord(t *testing.T, p variant.Puzzle) record.Puzzle {
	t.Helper()
	r, err := record.RateVariant(p, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.ID = 7
	return r
}

// shapes lists the elements of the board's drawing of rule i.
func shapes(doc *goquery.Document, i int, sel string) *goquery.Selection {
	return doc.Find(`.play .variant-overlay [data-rule="` + itoa(i) + `"]`).Filter(sel)
}

// attr is an element's attribute, "" when it has none.
func attr(s *goquery.Selection, name string) string {
	v, _ := s.Attr(name)
	return v
}

// TestVariantPage renders a variant of every kind of rule on the puzzle
// page: the rules in words above the board, the links, the variants'
// names, and each rule drawn on the play board where it lies.
func TestVariantPage(t *testing.T) {
	all := variantPuzzles(t)
	for _, name := range []string{"diagonal+-1", "windoku-1", "disjoint-1", "asterisk-1", "jigsaw-1", "killer-1",
		"littlekiller-1", "sandwich-1", "thermo-1", "arrow-1", "white-1", "black-1", "x-1", "v-1", "odd-1", "even-1",
		"whispers-1", "renban-1", "palindrome-1", "antiknight-1"} {
		t.Run(name, func(t *testing.T) {
			rec := variantRecord(t, all[name])
			p, err := rec.VariantPuzzle()
			if err != nil {
				t.Fatal(err)
			}
			doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: rec, Runs: 3}))
			words := byID(doc, "variant-words").Text()
			if !strings.HasPrefix(words, "Normal Sudoku rules apply") || words != strings.Join(variant.Words(p), " ") {
				t.Errorf("words %q", words)
			}
			if attr(byID(doc, "sudokupad-link"), "href") != rec.SudokuPad || rec.SudokuPad == "" ||
				attr(byID(doc, "fpuzzles-link"), "href") != rec.FPuzzles || rec.FPuzzles == "" {
				t.Errorf("links %q %q", attr(byID(doc, "sudokupad-link"), "href"), attr(byID(doc, "fpuzzles-link"), "href"))
			}
			if got := byID(doc, "variant-tag").First().Text(); got != rec.Variant.List()[0] {
				t.Errorf("variant tag %q, want %q", got, rec.Variant)
			}
			if got := byID(doc, "measure-variant").Find(".measure-value").Text(); got != strings.Join(rec.Variant.List(), ", ") {
				t.Errorf("variant measure %q", got)
			}
			play := byID(doc, "play")
			if attr(play, "data-rules") != string(rec.Rules) {
				t.Errorf("data-rules %q", attr(play, "data-rules"))
			}
			for i, r := range p.Rules {
				checkRuleDrawn(t, doc, i, r)
			}
		})
	}
}

// checkRuleDrawn checks the board draws rule i where it lies.
func checkRuleDrawn(t *testing.T, doc *goquery.Document, i int, r variant.Rule) {
	t.Helper()
	switch r.Type {
	case variant.DiagonalPlus:
		if attr(shapes(doc, i, "path.v-diagonal"), "d") != "M0 900L900 0" {
			t.Errorf("rule %d: no rising diagonal", i)
		}
	case variant.Windoku, variant.Asterisk, variant.Disjoint:
		n := 0
		for _, g := range variant.DrawnRegions(r.Type) {
			n += len(g)
		}
		if got := shapes(doc, i, "rect").Length(); got != n {
			t.Errorf("rule %d (%s): %d shaded cells, want %d", i, r.Type, got, n)
		}
	case variant.Jigsaw:
		checkJigsaw(t, doc, r)
	case variant.Killer:
		checkCage(t, doc, i, r)
	case variant.Thermo:
		x, y := centreOf(r.Cells[0])
		b := shapes(doc, i, "circle.v-thermo-bulb")
		if attr(b, "cx") != x || attr(b, "cy") != y || shapes(doc, i, "path.v-thermo-line").Length() != 1 {
			t.Errorf("rule %d: bulb at %s,%s, want %s,%s", i, attr(b, "cx"), attr(b, "cy"), x, y)
		}
	case variant.Arrow:
		if shapes(doc, i, "rect.v-arrow-circle").Length() != 1 || shapes(doc, i, "path.v-arrow-line").Length() != 1 {
			t.Errorf("rule %d: arrow not drawn", i)
		}
	case variant.White, variant.Black, variant.X, variant.V:
		checkEdgeMark(t, doc, i, r)
	case variant.Odd, variant.Even:
		if got := shapes(doc, i, ".v-odd, .v-even").Length(); got != len(r.Cells) {
			t.Errorf("rule %d: %d parity marks, want %d", i, got, len(r.Cells))
		}
	case variant.Whispers, variant.Renban, variant.Palindrome:
		if attr(shapes(doc, i, "path.v-"+string(r.Type)), "d") != polyline(r.Cells) {
			t.Errorf("rule %d: %s line not through its cells", i, r.Type)
		}
	case variant.Sandwich, variant.LittleKiller:
		checkOutside(t, doc, i, r)
	}
}

// centreOf is cell c's centre as the drawing writes it.
func centreOf(c variant.Cell) (string, string) {
	return unit(float64(int(c)%9*100 + 50)), unit(float64(int(c)/9*100 + 50))
}

// checkCage: a cage's outline, and its total in its top left cell's corner.
func checkCage(t *testing.T, doc *goquery.Document, i int, r variant.Rule) {
	t.Helper()
	if shapes(doc, i, "path.v-cage").Length() != 1 {
		t.Errorf("rule %d: no cage outline", i)
	}
	if r.Total == nil {
		return
	}
	g := shapes(doc, i, "g.v-cage-total")
	wantX, wantY := unit(float64(int(r.Cells[0])%9*100+3)), unit(float64(int(r.Cells[0])/9*100+3))
	if g.Find("text").Text() != itoa(*r.Total) || attr(g.Find("rect"), "x") != wantX || attr(g.Find("rect"), "y") != wantY {
		t.Errorf("rule %d: total %q at %s,%s, want %d at %s,%s", i, g.Find("text").Text(),
			attr(g.Find("rect"), "x"), attr(g.Find("rect"), "y"), *r.Total, wantX, wantY)
	}
}

// checkEdgeMark: a dot, X or V halfway between its two cells' centres.
func checkEdgeMark(t *testing.T, doc *goquery.Document, i int, r variant.Rule) {
	t.Helper()
	ax, ay := centreOf(r.Cells[0])
	bx, by := centreOf(r.Cells[1])
	mid := func(a, b string) string { return unit((parse(a) + parse(b)) / 2) }
	m := shapes(doc, i, ".v-dot, .v-xv")
	if attr(m, "x")+attr(m, "cx") != mid(ax, bx) || attr(m, "y")+attr(m, "cy") != mid(ay, by) {
		t.Errorf("rule %d: %s not between its cells", i, r.Type)
	}
	if (r.Type == variant.X || r.Type == variant.V) && m.Text() != strings.ToUpper(string(r.Type)) {
		t.Errorf("rule %d: %q", i, m.Text())
	}
}

// checkOutside: a sandwich's or little killer's total outside the grid,
// on a board with a margin for it.
func checkOutside(t *testing.T, doc *goquery.Document, i int, r variant.Rule) {
	t.Helper()
	c := shapes(doc, i, "text.v-clue")
	x, y := parse(attr(c, "x")), parse(attr(c, "y"))
	if c.Text() != itoa(*r.Total) || (x >= 0 && y >= 0 && x <= 900 && y <= 900) {
		t.Errorf("rule %d: clue %q at %v,%v, not outside the grid", i, c.Text(), x, y)
	}
	if !doc.Find(".play .board-wrap").HasClass("variant-margin") {
		t.Errorf("rule %d: board without a margin for outside clues", i)
	}
}

// checkJigsaw checks the play board's thick lines are the regions'.
func checkJigsaw(t *testing.T, doc *goquery.Document, r variant.Rule) {
	t.Helper()
	for i := range 81 {
		td := doc.Find(`.play-board td[data-cell="` + itoa(i) + `"]`)
		right := i%9 < 8 && r.Regions[i] != r.Regions[i+1]
		if strings.Contains(attr(td, "data-edge"), "r") != right {
			t.Errorf("jigsaw cell %d: data-edge %q, right edge %v", i, attr(td, "data-edge"), right)
		}
	}
}

// parse reads a drawing's number (0 for none).
func parse(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// TestClassicPageHasNoVariant: a classic puzzle's page draws nothing of
// variants and says nothing of them.
func TestClassicPageHasNoVariant(t *testing.T) {
	doc, html := render(t, PuzzlePage(PuzzleView{Puzzle: samplePuzzle(t), Runs: 3, ShowSolution: true}))
	for _, id := range []string{"variant-rules", "variant-under", "variant-over", "variant-tag", "measure-variant", "sudokupad-link"} {
		if byID(doc, id).Length() != 0 {
			t.Errorf("classic page has %s", id)
		}
	}
	if strings.Contains(html, "data-rules") || strings.Contains(html, "variant-margin") {
		t.Error("classic page carries variant attributes")
	}
}

// TestVariantLists: the home page's and /puzzles' rows name a variant's
// variants, and a classic row none.
func TestVariantLists(t *testing.T) {
	v := variantRecord(t, variantPuzzles(t)["mix-1"])
	c := samplePuzzle(t)
	home, _ := render(t, HomePage(HomeView{Recent: []record.Puzzle{v, c}}))
	if got := byID(home, "mini-variant"); got.Length() != 1 || got.Text() != variantNames(v) {
		t.Errorf("home rows: %d variant names %q, want %q", got.Length(), got.Text(), variantNames(v))
	}
	hist, _ := render(t, HistoryPage(HistoryView{Sort: record.SortDifficulty, Page: record.Page{Puzzles: []record.Puzzle{v, c}, Total: 2}}))
	if got := byID(hist, "variant-tag").Length(); got != len(v.Variant.List()) {
		t.Errorf("history: %d variant tags, want %d", got, len(v.Variant.List()))
	}
}

// TestVariantSolvedAndPrinted: the solved board under "Show solution" and
// the print card draw the rules too; the page offers no explanation,
// replay or hint, which would be the classic solver's on the givens alone
// (the variant logic is issue 48's), and says so.
func TestVariantSolvedAndPrinted(t *testing.T) {
	rec := variantRecord(t, variantPuzzles(t)["killer-1"])
	doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: rec, Runs: 3, ShowSolution: true}))
	for _, sel := range []string{".analysis .board-wrap:has(#board) .v-cage", ".print-card .v-cage"} {
		if doc.Find(sel).Length() == 0 {
			t.Errorf("no cages at %s", sel)
		}
	}
	for _, sel := range []string{"#explain", "#replay", "[data-testid=play-hint]"} {
		if doc.Find(sel).Length() != 0 {
			t.Errorf("a variant page has %s", sel)
		}
	}
	if byID(doc, "variant-no-explain").Length() != 1 {
		t.Errorf("a variant page does not say why it has no explanation")
	}
	if !strings.HasPrefix(byID(doc, "print-rules").Text(), "Normal Sudoku rules apply") {
		t.Errorf("print card without the rules in words")
	}
}

// TestVariantJSShapes: play.js's variant rules (static/js/variant.js)
// hold the fixed extra regions' cells as the engine does.
func TestVariantJSShapes(t *testing.T) {
	js, err := os.ReadFile("../static/js/variant.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, ty := range []variant.Type{variant.Asterisk, variant.CentreDot, variant.Girandola} {
		var cells []string
		for _, c := range variant.DrawnRegions(ty)[0] {
			cells = append(cells, itoa(int(c)))
		}
		want := "  " + string(ty) + ": [" + strings.Join(cells, ", ") + "],"
		if !strings.Contains(string(js), want) {
			t.Errorf("variant.js lacks %q", want)
		}
	}
}

// TestVariantShare: a variant's page shares its page and its f-puzzles
// link, not its givens (which alone are another, classic puzzle), and
// sends nobody to SudokuWiki's classic solver.
func TestVariantShare(t *testing.T) {
	rec := variantRecord(t, variantPuzzles(t)["thermo-1"])
	doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: rec, Runs: 3, Origin: "https://x.test"}))
	if got := attr(byID(doc, "share-link"), "value"); got != "https://x.test/puzzles/7" {
		t.Errorf("share link %q", got)
	}
	if got := attr(byID(doc, "puzzle-string"), "value"); got != rec.FPuzzles {
		t.Errorf("puzzle text %q, want the f-puzzles link", got)
	}
	if byID(doc, "sudokuwiki-link").Length() != 0 {
		t.Error("a variant links to SudokuWiki's classic solver")
	}
	if got := doc.Find(".print-card .print-link").Text(); got != "https://x.test/puzzles/7" {
		t.Errorf("print card link %q", got)
	}
}

// BenchmarkVariantPage renders a killer's page (27 cages drawn on the
// play board, the solved board, the explanation's and the print card),
// to set beside BenchmarkPuzzlePage's classic one.
func BenchmarkVariantPage(b *testing.B) {
	t := &testing.T{}
	c := PuzzlePage(PuzzleView{Puzzle: variantRecord(t, variantPuzzles(t)["killer-1"]), Runs: 3, HistoryURL: "/puzzles?around=42"})
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := c.Render(context.Background(), &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KiB/page")
}

// TestCageCombinationsButton: a board with killer cages offers their
// combinations; one without (a thermo, a classic puzzle) does not.
func TestCageCombinationsButton(t *testing.T) {
	all := variantPuzzles(t)
	for name, want := range map[string]int{"killer-1": 1, "thermo-1": 0} {
		doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: variantRecord(t, all[name]), Runs: 3}))
		if got := byID(doc, "play-combos").Length(); got != want {
			t.Errorf("%s: %d combinations buttons, want %d", name, got, want)
		}
	}
	doc, _ := render(t, PuzzlePage(PuzzleView{Puzzle: samplePuzzle(t), Runs: 3}))
	if byID(doc, "play-combos").Length() != 0 {
		t.Error("a classic board offers cage combinations")
	}
}
