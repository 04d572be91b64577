package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/templates"
)

// realServer returns a server with the real router over a real SQLite
// archive in a temporary directory, holding n graded puzzles of the rated
// collection (returned in id order).
func realServer(t *testing.T, n int, cfg Config) (*Server, *store.DB, []record.Puzzle) {
	t.Helper()
	var lines []string
	for _, r := range puzzletest.RatedPuzzles(t, n) {
		lines = append(lines, r.Puzzle)
	}
	db, all := gradedArchive(t, lines)
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	return New(AllParts(db), cfg), db, all
}

// practisable picks the technique to practise in the tests: the one most
// puzzles of all need as their hardest, outside the chains (whose steps
// are long) when one is.
func practisable(t *testing.T, all []record.Puzzle) logic.Technique {
	t.Helper()
	n := map[string]int{}
	for _, p := range all {
		n[p.Technique]++
	}
	var best logic.Technique
	for _, tc := range logic.Techniques() {
		if n[tc.Name] == 0 {
			continue
		}
		better := best.Name == "" || (best.Family == "chains") != (tc.Family == "chains") && best.Family == "chains" ||
			(best.Family == "chains") == (tc.Family == "chains") && n[tc.Name] > n[best.Name]
		if better {
			best = tc
		}
	}
	if best.Name == "" {
		t.Fatal("no graded puzzle")
	}
	return best
}

// uses reports whether p's path uses every technique of names.
func uses(p record.Puzzle, names ...string) bool {
	for _, n := range names {
		if !slices.Contains(p.Techniques.Names(), n) {
			return false
		}
	}
	return true
}

// TestTechniqueFilterAPI: technique= (a name in any case, or a slug;
// repeatable: every one of them) keeps the puzzles whose path uses them,
// page by page, with the total; an unknown name is a 400 that names the
// known ones; the export and the history take the filter too.
func TestTechniqueFilterAPI(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	want := 0
	for _, p := range all {
		if uses(p, logic.HiddenSingle, logic.Pointing) {
			want++
		}
	}
	if want == 0 || want == len(all) {
		t.Fatalf("%d of %d puzzles use both: a poor test", want, len(all))
	}
	var got []int64
	path := "/api/puzzles?technique=hidden+single&technique=POINTING&limit=4&sort=grade"
	for path != "" {
		rec := get(t, s, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		page := decode[listResponse](t, rec)
		if page.Total != int64(want) {
			t.Errorf("total %d, want %d", page.Total, want)
		}
		for _, p := range page.Puzzles {
			if !uses(p, logic.HiddenSingle, logic.Pointing) {
				t.Errorf("puzzle %d does not use both: %v", p.ID, p.Techniques.Names())
			}
			got = append(got, p.ID)
		}
		path = ""
		if page.NextCursor != nil {
			path = "/api/puzzles?technique=hidden-single&technique=pointing&limit=4&sort=grade&cursor=" + url.QueryEscape(*page.NextCursor)
		}
	}
	if len(got) != want {
		t.Errorf("listed %d puzzles, want %d", len(got), want)
	}

	rec := get(t, s, "/api/puzzles?technique=Skyscraper+Tower")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "Skyscraper Tower") ||
		!strings.Contains(rec.Body.String(), logic.XYWing) || !strings.Contains(rec.Body.String(), logic.FullHouse) {
		t.Errorf("unknown technique: %d %s", rec.Code, rec.Body)
	}

	rec = get(t, s, "/api/export?format=txt&technique=pointing")
	lines := strings.Fields(rec.Body.String())
	n := 0
	for _, p := range all {
		if uses(p, logic.Pointing) {
			n++
		}
	}
	if rec.Code != http.StatusOK || len(lines) != n {
		t.Errorf("export with technique: %d, %d lines, want %d", rec.Code, len(lines), n)
	}

	doc := page(t, get(t, s, "/puzzles?technique=pointing"), http.StatusOK)
	if sel := tid(doc, "technique-filter").Find("option[selected]"); sel.AttrOr("value", "") != "pointing" {
		t.Errorf("the history's technique control shows %q", sel.AttrOr("value", ""))
	}
	if !strings.Contains(tid(doc, "total").Text(), "using Pointing") {
		t.Errorf("history summary %q", tid(doc, "total").Text())
	}
	if href := doc.Find(`a[href^="/api/export"]`).First().AttrOr("href", ""); !strings.Contains(href, "technique=pointing") {
		t.Errorf("download link %q drops the filter", href)
	}
}

// TestAPITechniques: every technique of the ladder, easiest first by grade
// (logic.TechniquesByGrade), with the archive's counts.
func TestAPITechniques(t *testing.T) {
	s, _, all := realServer(t, 20, Config{})
	rec := get(t, s, "/api/techniques")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	got := decode[[]techniqueJSON](t, rec)
	ladder := logic.TechniquesByGrade()
	if len(got) != len(ladder) {
		t.Fatalf("%d techniques, the ladder has %d", len(got), len(ladder))
	}
	for i, tc := range got {
		if tc.Name != ladder[i].Name || tc.Slug != ladder[i].Slug || tc.Grade != ladder[i].Grade {
			t.Errorf("row %d = %+v, want %+v", i, tc, ladder[i])
		}
		var puzzles, hardest int64
		for _, p := range all {
			if uses(p, tc.Name) {
				puzzles++
			}
			if p.Technique == tc.Name {
				hardest++
			}
		}
		if tc.Puzzles != puzzles || tc.Hardest != hardest {
			t.Errorf("%s: %d puzzles, %d hardest; want %d, %d", tc.Name, tc.Puzzles, tc.Hardest, puzzles, hardest)
		}
	}
}

// TestTechniquePages: /techniques lists the ladder; a technique's page
// draws an example step on a board and lists the puzzles to practise it,
// easiest first, each opening in practice mode; a name goes to its slug;
// an unknown slug is a 404.
func TestTechniquePages(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	doc := page(t, get(t, s, "/techniques"), http.StatusOK)
	if n := tid(doc, "technique").Length(); n != len(logic.Techniques()) {
		t.Errorf("/techniques lists %d techniques, want %d", n, len(logic.Techniques()))
	}
	// "easiest first": the rows in grade order, each with its own description
	// (issue 46).
	descs := map[string]string{}
	prev := 0.0
	tid(doc, "technique").Each(func(i int, row *goquery.Selection) {
		name := row.AttrOr("data-technique", "")
		tc, _ := logic.TechniqueByName(name)
		if want := logic.TechniquesByGrade()[i].Name; name != want || tc.Grade < prev {
			t.Errorf("/techniques row %d is %s (%.1f, after %.1f), want %s", i, name, tc.Grade, prev, want)
		}
		prev = tc.Grade
		d := strings.TrimSpace(row.Find(".technique-what").Text())
		if other, dup := descs[d]; dup || d != logic.Describe(name) {
			t.Errorf("/techniques: %s describes itself %q (also %s's)", name, d, other)
		}
		descs[d] = name
	})
	tech := practisable(t, all)
	var practised []record.Puzzle
	for _, p := range all {
		if p.Technique == tech.Name {
			practised = append(practised, p)
		}
	}
	slices.SortStableFunc(practised, func(a, b record.Puzzle) int { return int(a.GradeTenths() - b.GradeTenths()) })
	doc = page(t, get(t, s, "/techniques/"+tech.Slug), http.StatusOK)
	if tid(doc, "technique-name").Text() != tech.Name || tid(doc, "technique-description").Text() == "" {
		t.Errorf("page of %q: %q", tid(doc, "technique-name").Text(), tid(doc, "technique-description").Text())
	}
	board := tid(doc, "example-board")
	if board.Find("td").Length() != 81 || board.Find("td.hint-cell").Length() == 0 || board.Find(`[data-mark="struck"]`).Length() == 0 {
		t.Errorf("example board: %d cells, %d highlighted, %d struck", board.Find("td").Length(),
			board.Find("td.hint-cell").Length(), board.Find(`[data-mark="struck"]`).Length())
	}
	if txt := tid(doc, "example-text").Text(); !strings.Contains(strings.ToLower(txt), strings.ToLower(tech.Name)) {
		t.Errorf("example text %q", txt)
	}
	var links []string
	tid(doc, "practice-puzzle").Find("a").Each(func(_ int, a *goquery.Selection) { links = append(links, a.AttrOr("href", "")) })
	if len(links) != len(practised) {
		t.Fatalf("practice list %v, want %d puzzles", links, len(practised))
	}
	for i, p := range practised {
		if want := templates.PuzzleURL(p.ID) + "?practice=" + tech.Slug; links[i] != want {
			t.Errorf("practice link %d = %s, want %s", i, links[i], want)
		}
	}
	if res := get(t, s, "/techniques/"+url.PathEscape(strings.ToUpper(tech.Name))).Result(); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/techniques/"+tech.Slug {
		t.Errorf("by name: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if rec := get(t, s, "/techniques/skyscraper-tower"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown slug: %d", rec.Code)
	}
	// A technique no archived puzzle uses: the page says so.
	doc = page(t, get(t, s, "/techniques/dynamic-forcing-chains-plus"), http.StatusOK)
	if tid(doc, "no-example").Length() != 1 {
		t.Error("no example: the page does not say so")
	}
}

// TestPracticeMode: the puzzle page in practice mode says what is
// practised; the hint of the practice mode is the next step on the
// player's board, found when it is of the technique practised, else the
// next step with found false; an unknown technique is a 400.
func TestPracticeMode(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	tech := practisable(t, all)
	p := all[slices.IndexFunc(all, func(p record.Puzzle) bool { return p.Technique == tech.Name })]
	doc := page(t, get(t, s, templates.PuzzleURL(p.ID)+"?practice="+tech.Slug), http.StatusOK)
	if tid(doc, "practice-banner").AttrOr("data-practice", "") != tech.Name {
		t.Errorf("practice banner %q", tid(doc, "practice-banner").AttrOr("data-practice", ""))
	}
	if rec := get(t, s, templates.PuzzleURL(p.ID)+"?practice=nonsense"); rec.Code != http.StatusBadRequest {
		t.Errorf("unknown practice: %d", rec.Code)
	}
	r, err := logic.Explain(p)
	if err != nil {
		t.Fatal(err)
	}
	// From the board of the path's first step of the technique, with its
	// candidates as pencil marks: found.
	pos, err := logic.Positions(p, tech.Name, 1)
	if err != nil || len(pos) != 1 {
		t.Fatalf("positions of %s: %v %v", tech.Name, pos, err)
	}
	body, _ := json.Marshal(map[string]any{"puzzle": p.Givens.String(), "progress": pos[0].Grid.String(),
		"candidates": pos[0].CandidateStrings(), "practice": strings.ToLower(tech.Name)})
	rec := post(t, s, "/api/hint", string(body))
	res := decode[struct {
		Step     logic.Step   `json:"step"`
		Practice practiceHint `json:"practice"`
	}](t, rec)
	if rec.Code != http.StatusOK || res.Step.Technique != tech.Name || !res.Practice.Found {
		t.Errorf("practice hint: %d %+v, want the %s", rec.Code, res, tech.Name)
	}
	// From the givens, the next step is another: found false, the next step.
	rec = post(t, s, "/api/hint", `{"puzzle": "`+p.Givens.String()+`", "practice": "`+tech.Slug+`"}`)
	if res := decode[hintResponse](t, rec); rec.Code != http.StatusOK || res.Practice == nil || res.Practice.Found != (r.Steps[0].Technique == tech.Name) ||
		res.Step.Technique != r.Steps[0].Technique {
		t.Errorf("practice hint from the givens: %d %s", rec.Code, rec.Body)
	}
	// Without practice, the next step as ever; the answer has no practice.
	rec = post(t, s, "/api/hint", `{"puzzle": "`+p.Givens.String()+`"}`)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"practice"`) || decode[hintResponse](t, rec).Step.Technique != r.Steps[0].Technique {
		t.Errorf("plain hint: %d %s", rec.Code, rec.Body)
	}
	// A technique the path from here does not use: the next step, found false.
	rec = post(t, s, "/api/hint", `{"puzzle": "`+p.Givens.String()+`", "practice": "dynamic forcing chains (+)"}`)
	if res := decode[hintResponse](t, rec); rec.Code != http.StatusOK || res.Practice == nil || res.Practice.Found || res.Step.Technique != r.Steps[0].Technique {
		t.Errorf("practice of an unused technique: %d %s", rec.Code, rec.Body)
	}
	if rec := post(t, s, "/api/hint", `{"puzzle": "`+p.Givens.String()+`", "practice": "nonsense"}`); rec.Code != http.StatusBadRequest {
		t.Errorf("unknown practice: %d %s", rec.Code, rec.Body)
	}
}

// fakeTechniques is a fake archive that keeps players and a technique
// index (with nothing in it), for tests of the whole route table.
type fakeTechniques struct{ *fakeModeration }

func (fakeTechniques) Techniques(context.Context) ([]record.TechniqueCount, error) { return nil, nil }
func (fakeTechniques) Practice(context.Context, string, int) ([]record.Puzzle, error) {
	return nil, nil
}
func (fakeTechniques) UsingTechnique(context.Context, string, int) ([]record.Puzzle, error) {
	return nil, nil
}
