package bulk

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// variantSet returns the written forms of the variant engine's test set
// (internal/variant/testdata/puzzles.txt, CC0) by name.
func variantSet(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range puzzletest.Variants(t) {
		out[p.Name] = p.Text
	}
	return out
}

// TestImportVariantLines: the batch import and the file import read a
// variant per line (a link, f-puzzles JSON, the written form, an export's
// JSON object), rate it with the variant engine and keep its rules, title
// and author; bad variants are rejected by line with what and where.
func TestImportVariantLines(t *testing.T) {
	set := variantSet(t)
	x, err := variant.Parse([]byte(set["diagonal+-1"]))
	if err != nil {
		t.Fatal(err)
	}
	link, err := fpuzzles.Link(fpuzzles.Puzzle{Puzzle: x, Title: "Cross", Author: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	killer := set["killer-nogivens-1"]
	thermo, err := variant.Parse([]byte(set["thermo-1"]))
	if err != nil {
		t.Fatal(err)
	}
	exp := record.Puzzle{Givens: thermo.Givens, Rules: record.RulesOf(thermo.Rules), Title: "Hot", Author: "Bo"}
	expLine, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	overlap := `{"givens":"` + strings.Repeat(".", 81) + `","rules":[{"type":"killer","cells":["r1c1","r1c2"]},{"type":"killer","cells":["r1c2","r1c3"]}]}`
	body := strings.Join([]string{
		link,            // 1
		killer,          // 2
		string(expLine), // 3
		overlap,         // 4
		fpuzzles.FPuzzlesPrefix + fpuzzles.CompressToBase64(`{"size":9,"grid":[],"chess":[1]}`), // 5
		fpuzzles.SudokuPadPrefix + "!!!", // 6
		strings.Repeat(".", 81),          // 7: a classic grid without givens
	}, "\n") + "\n"
	check := func(name string, sum Summary, rej []Rejection, ps []record.Puzzle) {
		t.Helper()
		if sum.Imported != 3 || sum.Rejected != 4 {
			t.Errorf("%s: summary %+v, rejections %v", name, sum, rej)
		}
		want := map[int64]string{4: "rule 2 (killer) at r1c2", 5: "chess", 6: "decompress", 7: "no givens"}
		for _, r := range rej {
			if !strings.Contains(r.Err.Error(), want[r.Line]) {
				t.Errorf("%s: line %d: %v, want %q", name, r.Line, r.Err, want[r.Line])
			}
		}
		for i, p := range ps {
			if p.Rules == "" || p.Solutions != 1 || p.FPuzzles == "" {
				t.Errorf("%s: puzzle %d: %+v", name, i, p)
			}
		}
		if len(ps) == 3 && (ps[0].Title != "Cross" || ps[0].Author != "Ann" || ps[2].Title != "Hot" || ps[2].Variant != "thermo") {
			t.Errorf("%s: titles or variants lost: %+v", name, ps)
		}
	}
	sink := newFakeArchive()
	sum, rej, err := ImportText(t.Context(), sink, "upload.txt", []byte(body), TextOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("ImportText", sum, rej, sink.puzzles)

	sink = newFakeArchive()
	var rej2 []Rejection
	sum, err = Import(t.Context(), sink, []Input{{"file", bytes.NewReader([]byte(body))}}, Options{
		Reject: func(r Rejection) { rej2 = append(rej2, r) }})
	if err != nil {
		t.Fatal(err)
	}
	check("Import", sum, rej2, sink.puzzles)
}

// TestExportImportVariants: a JSON or CSV export of variants imports
// again with every rule, the title and the author.
func TestExportImportVariants(t *testing.T) {
	set := variantSet(t)
	src := newFakeArchive()
	var want []record.Puzzle
	for _, name := range []string{"diagonal+-1", "thermo-1", "killer-1"} {
		vp, err := variant.Parse([]byte(set[name]))
		if err != nil {
			t.Fatal(err)
		}
		p, err := record.RateVariant(vp, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.Title, p.Author = "T, \"quoted\" "+name, "A"
		p.SetLinks()
		want = append(want, p)
	}
	if _, err := src.SubmitMany(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{JSON, CSV} {
		var buf bytes.Buffer
		if _, err := Export(t.Context(), src, &buf, f, record.ListQuery{Sort: record.SortSubmitted}); err != nil {
			t.Fatal(err)
		}
		dst := newFakeArchive()
		var rej []Rejection
		sum, err := Import(t.Context(), dst, []Input{{"export", &buf}}, Options{Reject: func(r Rejection) { rej = append(rej, r) }})
		if err != nil || sum.Imported != 3 {
			t.Fatalf("%v: %+v %v %v", f, sum, rej, err)
		}
		for _, w := range want {
			i, ok := dst.byGiven[w.Givens]
			if !ok {
				t.Fatalf("%v: %s lost", f, w.Givens)
			}
			g := dst.puzzles[i]
			if g.Rules != w.Rules || g.Title != w.Title || g.Author != w.Author || g.Variant != w.Variant || g.FPuzzles != w.FPuzzles {
				t.Errorf("%v: imported %q %q %q, want %q %q %q", f, g.Rules, g.Title, g.Author, w.Rules, w.Title, w.Author)
			}
		}
	}
}
