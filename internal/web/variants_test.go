package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// variantSet returns a puzzle of the variant engine's test set
// (internal/variant/testdata/puzzles.txt, CC0) by name.
func variantSet(t *testing.T, name string) variant.Puzzle {
	t.Helper()
	return varianttest.Puzzle(t, name)
}

// fpLink is p's f-puzzles link with a title and author.
func fpLink(t *testing.T, p variant.Puzzle, title string) string {
	t.Helper()
	l, err := fpuzzles.Link(fpuzzles.Puzzle{Puzzle: p, Title: title, Author: "Setter"})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// body marshals v as a JSON body.
func body(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listTotal is GET /api/puzzles's total for query q.
func listTotal(t *testing.T, s *Server, q string) int64 {
	t.Helper()
	rec := get(t, s, "/api/puzzles?"+q)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/puzzles?%s: %d %s", q, rec.Code, rec.Body)
	}
	return decode[listResponse](t, rec).Total
}

// TestAPISubmitVariantForms: POST /api/puzzles and /api/solve read a
// variant in every form, through the real router over a real archive;
// the answer carries its rules, variant names, title, author and links.
func TestAPISubmitVariantForms(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	x := variantSet(t, "diagonal+-1")
	link := fpLink(t, x, "Cross")
	fpJSON, err := fpuzzles.Write(fpuzzles.Puzzle{Puzzle: x, Title: "Cross", Author: "Setter"})
	if err != nil {
		t.Fatal(err)
	}
	pad := fpuzzles.SudokuPadPrefix + strings.TrimPrefix(link, fpuzzles.FPuzzlesPrefix)
	for i, b := range []string{
		puzzleBody(link),
		puzzleBody(pad),
		puzzleBody(fpuzzles.FPuzzlesPrefix + url.QueryEscape(strings.TrimPrefix(link, fpuzzles.FPuzzlesPrefix))),
		body(t, map[string]json.RawMessage{"fpuzzles": fpJSON}),
		puzzleBody(string(fpJSON)),
	} {
		rec := post(t, s, "/api/solve", b)
		if rec.Code != http.StatusOK {
			t.Fatalf("solve %d: %d %s", i, rec.Code, rec.Body)
		}
		sol := decode[record.Puzzle](t, rec)
		if sol.Variant != "x" || sol.Rules == "" || sol.Solutions != 1 || sol.Title != "Cross" || sol.FPuzzles == "" {
			t.Errorf("solve %d: %s", i, rec.Body)
		}
		rec = post(t, s, "/api/puzzles", b)
		want := http.StatusOK
		if i == 0 {
			want = http.StatusCreated
		}
		if rec.Code != want {
			t.Fatalf("submit %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	// The written form has no title: another submission of the same puzzle.
	rec := post(t, s, "/api/puzzles", puzzleBody(x.Text()))
	if rec.Code != http.StatusOK && rec.Code != http.StatusCreated {
		t.Fatalf("written form: %d %s", rec.Code, rec.Body)
	}
	if n := listTotal(t, s, ""); n != 2 {
		t.Errorf("%d puzzles archived, want 2 (one classic of realServer's)", n)
	}
}

// TestAPISubmitVariantStored: the stored puzzle object carries the rules,
// variant names, title, author and links. Needs the store's variant
// columns (helper v-store's branch): without them the row keeps givens only.
func TestAPISubmitVariantStored(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	x := variantSet(t, "diagonal+-1")
	rec := post(t, s, "/api/puzzles", puzzleBody(fpLink(t, x, "Cross")))
	if rec.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	p := decode[submitResponse](t, rec)
	needVariantStore(t, p.Puzzle)
	got := get(t, s, "/api/puzzles/"+rec.Header().Get("Location")[len("/puzzles/"):])
	q := decode[record.Puzzle](t, got)
	for _, r := range []record.Puzzle{p.Puzzle, q} {
		if r.Variant != "x" || r.Rules == "" || r.Title != "Cross" || r.Author != "Setter" || r.FPuzzles == "" || r.SudokuPad == "" {
			t.Errorf("stored as %+v", r)
		}
	}
	// The classic solver's explanation and the search's replay would be of
	// the givens alone, another puzzle: refused, saying why.
	id := strconv.FormatInt(q.ID, 10)
	for _, path := range []string{"/api/puzzles/" + id + "/explain", "/api/puzzles/" + id + "/trace"} {
		if rec := get(t, s, path); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "variant") {
			t.Errorf("GET %s: %d %s, want a 422 saying it is a variant", path, rec.Code, rec.Body)
		}
	}
}

// needVariantStore fails a test whose variant came back from the store
// without its rules.
func needVariantStore(t *testing.T, stored record.Puzzle) {
	t.Helper()
	if stored.Rules == "" {
		t.Fatalf("the store lost the variant's rules: %+v", stored)
	}
}

// TestAPIVariantErrors: hostile and bad variants are 4xx naming what and
// where, and nothing is stored.
func TestAPIVariantErrors(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	dots := strings.Repeat(".", 81)
	overlap := `{"givens":"` + dots + `","rules":[{"type":"killer","cells":["r1c1","r1c2"],"total":3},{"type":"killer","cells":["r1c2","r1c3"],"total":5}]}`
	tooMany := `{"givens":"` + dots + `","rules":[` + strings.TrimSuffix(strings.Repeat(`{"type":"odd","cells":["r1c1"]},`, variant.MaxRules+1), ",") + `]}`
	for _, tc := range []struct {
		name, body string
		status     int
		says       []string
	}{
		{"unsupported constraint", body(t, map[string]any{"fpuzzles": map[string]any{"size": 9, "grid": [][]any{}, "betweenline": []any{map[string]any{"lines": [][]string{{"R1C1", "R1C2"}}}}}}),
			http.StatusUnprocessableEntity, []string{"betweenline"}},
		{"unsupported in a link", puzzleBody(fpuzzles.FPuzzlesPrefix + fpuzzles.CompressToBase64(`{"size":9,"grid":[],"chess":[1]}`)),
			http.StatusUnprocessableEntity, []string{"chess"}},
		{"overlapping cages", puzzleBody(overlap), http.StatusUnprocessableEntity, []string{"rule 2 (killer)", "r1c2"}},
		{"unknown rule type", puzzleBody(`{"givens":"` + dots + `","rules":[{"type":"chaos"}]}`), http.StatusUnprocessableEntity, []string{"chaos"}},
		{"too many rules", puzzleBody(tooMany), http.StatusUnprocessableEntity, []string{"limit"}},
		{"bad LZ data", puzzleBody(fpuzzles.FPuzzlesPrefix + "%%%%"), http.StatusBadRequest, []string{"f-puzzles"}},
		{"bad LZ data 2", puzzleBody(fpuzzles.SudokuPadPrefix + "N4Ig!!!"), http.StatusBadRequest, []string{"decompress"}},
		{"fpuzzles not an object", `{"fpuzzles": "N4Ig"}`, http.StatusBadRequest, []string{"fpuzzles"}},
		{"puzzle and fpuzzles", `{"puzzle": "1", "fpuzzles": {}}`, http.StatusBadRequest, []string{"not both"}},
		{"huge link", puzzleBody(fpuzzles.FPuzzlesPrefix + strings.Repeat("A", fpuzzles.MaxLink)), http.StatusRequestEntityTooLarge, nil},
		{"no solution", puzzleBody(`{"givens":"12` + dots[2:] + `","rules":[{"type":"killer","cells":["r1c1","r1c2"],"total":4}]}`), http.StatusUnprocessableEntity, []string{"no solution"}},
	} {
		for _, path := range []string{"/api/puzzles", "/api/solve"} {
			rec := post(t, s, path, tc.body)
			if rec.Code != tc.status {
				t.Errorf("%s %s: %d %s, want %d", path, tc.name, rec.Code, rec.Body, tc.status)
				continue
			}
			msg := decode[errorBody](t, rec).Error
			for _, w := range tc.says {
				if !strings.Contains(msg, w) {
					t.Errorf("%s %s: %q does not say %q", path, tc.name, msg, w)
				}
			}
		}
	}
	if n := listTotal(t, s, ""); n != 1 {
		t.Errorf("%d puzzles stored, want realServer's 1", n)
	}
}

// TestFormVariant: the submit form takes a link (303 to the puzzle) and
// shows an unsupported rule's name with the input kept (422).
func TestFormVariant(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	x := variantSet(t, "diagonal+-1")
	rec := postForm(t, s, fpLink(t, x, "Cross"))
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/puzzles/") {
		t.Fatalf("link: %d %v", rec.Code, rec.Header())
	}
	bad := fpuzzles.FPuzzlesPrefix + fpuzzles.CompressToBase64(`{"size":9,"grid":[],"chess":[1]}`)
	doc := page(t, postForm(t, s, bad), http.StatusUnprocessableEntity)
	if msg := doc.Find(`[data-testid="form-error-message"]`).Text(); !strings.Contains(msg, "chess") {
		t.Errorf("error %q does not name the rule", msg)
	}
	if in := doc.Find(`textarea[name="puzzle"]`).Text(); strings.TrimSpace(in) != bad {
		t.Errorf("input not kept: %.60q", in)
	}
	if n := listTotal(t, s, ""); n != 2 {
		t.Errorf("%d puzzles stored, want 2 (one classic of realServer's)", n)
	}
}

// TestVariantParam: variant= takes the short names and classic, and
// refuses anything else with a 400 naming it.
func TestVariantParam(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	for _, q := range []string{"variant=killer", "variant=classic", "variant=killer&variant=thermo", "variant=x&variant=x"} {
		if rec := get(t, s, "/api/puzzles?"+q); rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", q, rec.Code, rec.Body)
		}
	}
	for _, q := range []string{"variant=chaos", "variant=", "variant=classic&variant=killer", "variant=Killer"} {
		rec := get(t, s, "/api/puzzles?"+q)
		if rec.Code != http.StatusBadRequest || !strings.Contains(decode[errorBody](t, rec).Error, `"variant"`) {
			t.Errorf("%s: %d %s", q, rec.Code, rec.Body)
		}
	}
	v, err := variantParams(url.Values{"variant": {"thermo", "killer", "thermo"}})
	if err != nil || v != "killer,thermo" {
		t.Errorf("variantParams: %q, %v", v, err)
	}
}

// TestVariantFilter: GET /api/puzzles?variant= keeps the puzzles with
// every named variant, classic the classic ones. Needs the store's side
// of the filter (helper v-store's branch).
func TestVariantFilter(t *testing.T) {
	s, _, _ := realServer(t, 2, Config{})
	for _, name := range []string{"diagonal+-1", "killer-nogivens-1"} {
		rec := post(t, s, "/api/puzzles", puzzleBody(variantSet(t, name).Text()))
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: %d %s", name, rec.Code, rec.Body)
		}
		needVariantStore(t, decode[submitResponse](t, rec).Puzzle)
	}
	for q, want := range map[string]int64{
		"": 4, "variant=classic": 2, "variant=x": 1, "variant=killer": 1, "variant=killer&variant=x": 0, "variant=thermo": 0,
	} {
		if n := listTotal(t, s, q); n != want {
			t.Errorf("%s: %d puzzles, want %d", q, n, want)
		}
	}
}

// TestOpenAPIVariants: the description has the puzzle object's variant
// fields, the request's "fpuzzles" and the listing's variant parameter
// (the responses themselves are checked against it by do).
func TestOpenAPIVariants(t *testing.T) {
	doc, _ := loadSpec(t)
	puzzle := doc.Components.Schemas["Puzzle"].Value
	for _, f := range []string{"rules", "variant", "title", "author", "fpuzzles", "sudokupad"} {
		if puzzle.Properties[f] == nil {
			t.Errorf("Puzzle has no %q", f)
		}
	}
	if doc.Components.Schemas["PuzzleInput"].Value.Properties["fpuzzles"] == nil {
		t.Error(`PuzzleInput has no "fpuzzles"`)
	}
	if doc.Paths.Find("/api/puzzles").Get.Parameters.GetByInAndName("query", "variant") == nil {
		t.Error("GET /api/puzzles has no variant parameter")
	}
}

// TestBatchVariants: the batch import takes a variant per line through
// the real router and archive, and names a bad variant's line and rule.
func TestBatchVariants(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	x := variantSet(t, "diagonal+-1")
	unsupported := fpuzzles.FPuzzlesPrefix + fpuzzles.CompressToBase64(`{"size":9,"grid":[],"chess":[1]}`)
	body := fpLink(t, x, "Cross") + "\n" + unsupported + "\n"
	rec := do(t, s, request{method: http.MethodPost, path: "/api/puzzles/batch", body: body, contentType: "text/plain"})
	if rec.Code != http.StatusOK {
		t.Fatalf("batch: %d %s", rec.Code, rec.Body)
	}
	got := decode[batchResult](t, rec)
	if got.Imported != 1 || got.Rejected != 1 || len(got.Errors) != 1 || got.Errors[0].Line != 2 || !strings.Contains(got.Errors[0].Error, "chess") {
		t.Errorf("batch: %+v", got)
	}
}

// TestAnalyseClassicOnly: the setter's analysis takes classic puzzles
// only for now, and says so of a variant (422), whatever its form.
func TestAnalyseClassicOnly(t *testing.T) {
	s, _, _ := realServer(t, 1, Config{})
	rec := post(t, s, "/api/analyse", puzzleBody(fpLink(t, variantSet(t, "diagonal+-1"), "")))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(decode[errorBody](t, rec).Error, "classic") {
		t.Errorf("analyse of a variant: %d %s", rec.Code, rec.Body)
	}
}
