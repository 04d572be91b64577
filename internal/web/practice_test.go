package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// checkPositions checks every position of a practice answer against the
// archive: the technique is the step's, the grid is the puzzle's givens and
// more, each elimination is a candidate of its cell and not the solution's
// digit, each placement is the solution's digit.
func checkPositions(t *testing.T, tech logic.Technique, res practiceResponse, byID map[int64]record.Puzzle) {
	t.Helper()
	if res.Technique != tech.Name || res.Slug != tech.Slug {
		t.Errorf("answer names %q %q, want %q", res.Technique, res.Slug, tech.Name)
	}
	for _, pos := range res.Positions {
		p, ok := byID[pos.PuzzleID]
		if !ok || !uses(p, tech.Name) {
			t.Fatalf("%s: puzzle %d does not use it", tech.Name, pos.PuzzleID)
		}
		g, err := sudoku.Parse(pos.Grid)
		if err != nil || len(pos.Candidates) != 81 || pos.Givens != p.Givens.String() {
			t.Fatalf("%s: position of puzzle %d: grid %q (%v), %d candidates", tech.Name, p.ID, pos.Grid, err, len(pos.Candidates))
		}
		for c := range 81 {
			if p.Givens[c] != 0 && g[c] != p.Givens[c] || g[c] != 0 && g[c] != p.Solution[c] || (g[c] == 0) != (pos.Candidates[c] != "") {
				t.Fatalf("%s: puzzle %d cell %d: grid %d, candidates %q", tech.Name, p.ID, c, g[c], pos.Candidates[c])
			}
		}
		st := pos.Step
		if st.Technique != tech.Name || len(st.Eliminations)+len(st.Placements) == 0 {
			t.Fatalf("%s: puzzle %d: step %+v", tech.Name, p.ID, st)
		}
		for _, e := range st.Eliminations {
			if !strings.ContainsRune(pos.Candidates[e.Cell], rune('0'+e.Digit)) || int(p.Solution[e.Cell]) == e.Digit {
				t.Fatalf("%s: puzzle %d: elimination %+v, candidates %q, solution %d", tech.Name, p.ID, e, pos.Candidates[e.Cell], p.Solution[e.Cell])
			}
		}
		for _, pl := range st.Placements {
			if int(p.Solution[pl.Cell]) != pl.Digit || !strings.ContainsRune(pos.Candidates[pl.Cell], rune('0'+pl.Digit)) {
				t.Fatalf("%s: puzzle %d: placement %+v, solution %d", tech.Name, p.ID, pl, p.Solution[pl.Cell])
			}
		}
	}
}

// TestPracticeAPI: positions of a technique, true on their boards; limit
// bounds them; an unknown slug is a 404 and a limit outside 1..20 a 400.
func TestPracticeAPI(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	byID := map[int64]record.Puzzle{}
	for _, p := range all {
		byID[p.ID] = p
	}
	tech := practisable(t, all)
	rec := get(t, s, "/api/techniques/"+tech.Slug+"/practice?limit=3")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	res := decode[practiceResponse](t, rec)
	if len(res.Positions) != 3 {
		t.Errorf("%d positions, want 3", len(res.Positions))
	}
	checkPositions(t, tech, res, byID)
	if !strings.Contains(rec.Body.String(), `"links":`) || !strings.Contains(rec.Body.String(), `"candidates":["`) {
		t.Errorf("answer lacks links or candidates: %.300s", rec.Body)
	}
	if rec := get(t, s, "/api/techniques/skyscraper-tower/practice"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown slug: %d", rec.Code)
	}
	for _, l := range []string{"0", "21", "x"} {
		if rec := get(t, s, "/api/techniques/"+tech.Slug+"/practice?limit="+l); rec.Code != http.StatusBadRequest {
			t.Errorf("limit=%s: %d", l, rec.Code)
		}
	}
	// A technique no puzzle uses: no positions, an empty list.
	rec = get(t, s, "/api/techniques/dynamic-forcing-chains-plus/practice")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"positions":[]`) {
		t.Errorf("unused technique: %d %s", rec.Code, rec.Body)
	}
}

// TestPracticeEveryTechnique: on an archive of 2,000 graded puzzles, every
// technique that 3 or more paths use has at least 3 positions, each true
// on its board.
func TestPracticeEveryTechnique(t *testing.T) {
	racefree.Only(t)
	t.Parallel() // the longest of the package: beside each other, not in turn
	s, _, all := realServer(t, 2000, Config{})
	byID := map[int64]record.Puzzle{}
	for _, p := range all {
		byID[p.ID] = p
	}
	checked := 0
	for _, tech := range logic.Techniques() {
		n := 0
		for _, p := range all {
			if uses(p, tech.Name) {
				n++
			}
		}
		if n < 3 {
			continue
		}
		rec := get(t, s, "/api/techniques/"+tech.Slug+"/practice?limit=3")
		res := decode[practiceResponse](t, rec)
		if rec.Code != http.StatusOK || len(res.Positions) < 3 {
			t.Errorf("%s (%d paths use it): %d, %d positions", tech.Name, n, rec.Code, len(res.Positions))
			continue
		}
		checkPositions(t, tech, res, byID)
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d techniques checked", checked)
	}
	t.Logf("%d techniques with 3 positions each", checked)
}

// TestPracticePage: the practice page draws a position's board with its
// candidates and the pad that picks them, says what to find, and (for the
// page without JavaScript) holds the answer drawn on a second board with
// its sentence; ?n= gives another position; the technique's page offers
// the positions whenever a puzzle uses the technique, even when none needs
// it as its hardest.
func TestPracticePage(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	tech := practisable(t, all)
	doc := page(t, get(t, s, "/techniques/"+tech.Slug+"/practice"), http.StatusOK)
	board := tid(doc, "practice-board")
	if board.Find("td").Length() != 81 || board.Find(`[data-mark="on"]`).Length() == 0 || board.Find(`[data-mark="struck"]`).Length() != 0 {
		t.Errorf("practice board: %d cells, %d candidates, %d struck", board.Find("td").Length(),
			board.Find(`[data-mark="on"]`).Length(), board.Find(`[data-mark="struck"]`).Length())
	}
	checkPracticePad(t, tid(doc, "practice-pad"))
	if !strings.Contains(tid(doc, "practice-task").Text(), "Find the "+tech.Name) {
		t.Errorf("task %q", tid(doc, "practice-task").Text())
	}
	var data struct {
		Candidates []int      `json:"candidates"`
		Step       logic.Step `json:"step"`
	}
	if err := json.Unmarshal([]byte(tid(doc, "practice").AttrOr("data-position", "")), &data); err != nil || len(data.Candidates) != 81 || data.Step.Technique != tech.Name {
		t.Fatalf("data-position: %v, %d candidates, %q", err, len(data.Candidates), data.Step.Technique)
	}
	reveal := tid(doc, "practice-reveal")
	if tid(doc, "practice-answer").Text() != data.Step.Text || reveal.Find(`[data-testid="practice-answer-board"] td.hint-cell`).Length() == 0 ||
		reveal.Find(`svg[data-testid="step-overlay"]`).Length() != 1 {
		t.Errorf("reveal: answer %q, %d highlighted", tid(doc, "practice-answer").Text(), reveal.Find("td.hint-cell").Length())
	}
	if href := tid(doc, "practice-next").AttrOr("href", ""); href != "/techniques/"+tech.Slug+"/practice?n=1" {
		t.Errorf("next position link %q", href)
	}
	doc = page(t, get(t, s, "/techniques/"+tech.Slug+"/practice?n=1"), http.StatusOK)
	if tid(doc, "practice-board").Length() != 1 {
		t.Error("?n=1 shows no board")
	}
	if rec := get(t, s, "/techniques/skyscraper-tower/practice"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown slug: %d", rec.Code)
	}
	doc = page(t, get(t, s, "/techniques/dynamic-forcing-chains-plus/practice"), http.StatusOK)
	if tid(doc, "no-position").Length() != 1 {
		t.Error("a technique no puzzle uses: the page does not say so")
	}
	// A technique some puzzles use but none needs as its hardest.
	for _, tc := range logic.Techniques() {
		used, hardest := false, false
		for _, p := range all {
			used = used || uses(p, tc.Name)
			hardest = hardest || p.Technique == tc.Name
		}
		if !used || hardest {
			continue
		}
		doc = page(t, get(t, s, "/techniques/"+tc.Slug), http.StatusOK)
		if tid(doc, "practice-positions").Find(`a[href="/techniques/`+tc.Slug+`/practice"]`).Length() != 1 || tid(doc, "no-hardest").Length() != 1 ||
			strings.Contains(doc.Text(), "needs this technique as its hardest yet") {
			t.Errorf("%s: the page offers no practice positions", tc.Name)
		}
		return
	}
	t.Error("no technique used but never the hardest: a poor archive")
}

// TestHintPencilMarks: the hint is the next step on the player's board:
// pencil marks count where a cell has some; marks that leave out a cell's
// solution digit are set aside and named (ignored, note); a step that strikes
// candidates from cells showing no marks names them (unmarked, note);
// candidates that are not 81 strings of digits are a 400.
func TestHintPencilMarks(t *testing.T) {
	s, _, all := realServer(t, 30, Config{})
	tech := practisable(t, all)
	var p record.Puzzle
	var pos logic.Position
	for _, q := range all {
		if ps, err := logic.Positions(q, tech.Name, 1); err == nil && len(ps) == 1 && len(ps[0].Step.Eliminations) > 0 {
			p, pos = q, ps[0]
			break
		}
	}
	if p.ID == 0 {
		t.Fatalf("no position of %s eliminates", tech.Name)
	}
	hint := func(cands []string) (int, hintResponse, string) {
		body, _ := json.Marshal(map[string]any{"puzzle": p.Givens.String(), "progress": pos.Grid.String(), "candidates": cands})
		rec := post(t, s, "/api/hint", string(body))
		var res hintResponse
		_ = json.Unmarshal(rec.Body.Bytes(), &res)
		return rec.Code, res, rec.Body.String()
	}
	marks := pos.CandidateStrings()
	code, res, body := hint(marks)
	if code != http.StatusOK || res.Step.Technique != tech.Name || len(res.Unmarked) != 0 {
		t.Errorf("with the position's marks: %d %s", code, body)
	}
	// The same board without the marks of the cells the step strikes.
	bare := append([]string(nil), marks...)
	e := pos.Step.Eliminations[0].Cell
	bare[e] = ""
	code, res, body = hint(bare)
	if code != http.StatusOK || (res.Step.Technique == tech.Name && !strings.Contains(res.Note, "no pencil marks")) {
		t.Errorf("without marks in r%dc%d: %d %s", e/9+1, e%9+1, code, body)
	}
	for _, c := range res.Unmarked {
		if bare[c] != "" {
			t.Errorf("unmarked lists r%dc%d, which shows marks", c/9+1, c%9+1)
		}
	}
	// Marks that leave out the solution's digit.
	wrong := append([]string(nil), marks...)
	wrong[e] = strings.ReplaceAll(wrong[e], string(rune('0'+p.Solution[e])), "")
	if wrong[e] == "" {
		wrong[e] = string(rune('0' + pos.Step.Eliminations[0].Digit))
	}
	code, res, body = hint(wrong)
	if code != http.StatusOK || len(res.Ignored) != 1 || res.Ignored[0] != e || !strings.Contains(res.Note, "leave out the digit") {
		t.Errorf("marks without the solution's digit: %d %s", code, body)
	}
	for _, bad := range [][]string{marks[:80], append(append([]string(nil), marks[:80]...), "0")} {
		if code, _, body := hint(bad); code != http.StatusBadRequest {
			t.Errorf("bad candidates: %d %s", code, body)
		}
	}
}

// TestStepsCarryLinks: in the explain API every step of a chain carries
// its links (cells 0-80, digits 1-9) and its cells, and so does the hint
// API's step, from a board at which a chain is the next step.
// The explanations are one goroutine's walk, one request at a time:
// make test runs it without -race (internal/racefree), as TestRoleMatrix.
func TestStepsCarryLinks(t *testing.T) {
	racefree.Only(t)
	s, _, all := realServer(t, 40, Config{})
	chained := 0
	for _, p := range all {
		rec := get(t, s, "/api/puzzles/"+strconv.FormatInt(p.ID, 10)+"/explain")
		var path struct {
			Steps []struct {
				Technique string `json:"technique"`
				Cells     []int  `json:"cells"`
				Links     []logic.Link
			} `json:"steps"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &path); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("explain %d: %d %v", p.ID, rec.Code, err)
		}
		for _, st := range path.Steps {
			tc, _ := logic.TechniqueByName(st.Technique)
			if tc.Family != "chains" && tc.Family != "strong" {
				continue
			}
			chained++
			if len(st.Links) == 0 || len(st.Cells) == 0 {
				t.Errorf("puzzle %d: %s has %d links, %d cells", p.ID, st.Technique, len(st.Links), len(st.Cells))
			}
			for _, l := range st.Links {
				for _, x := range []logic.Candidate{l.From, l.To} {
					if x.Cell < 0 || x.Cell > 80 || x.Digit < 1 || x.Digit > 9 {
						t.Errorf("puzzle %d: %s: link %+v", p.ID, st.Technique, l)
					}
				}
			}
			if chained == 1 {
				checkHintLinks(t, s, p, st.Technique)
			}
		}
	}
	if chained == 0 {
		t.Fatal("no chain step in the archive: a poor test")
	}
}

// checkHintLinks asks for a hint at the board where p's path takes its
// first step of technique name: the step carries its links.
func checkHintLinks(t *testing.T, s *Server, p record.Puzzle, name string) {
	t.Helper()
	pos, err := logic.Positions(p, name, 1)
	if err != nil || len(pos) != 1 {
		t.Fatalf("positions: %v", err)
	}
	body, _ := json.Marshal(map[string]any{"puzzle": p.Givens.String(), "progress": pos[0].Grid.String(), "candidates": pos[0].CandidateStrings()})
	rec := post(t, s, "/api/hint", string(body))
	var res struct {
		Step struct {
			Technique string
			Links     []logic.Link
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK || len(res.Step.Links) == 0 {
		t.Errorf("hint at a %s: %d %.400s", name, rec.Code, rec.Body)
	}
}

// checkPracticePad: the pad picks a selected cell's candidates (issue 46:
// a pencil mark is too small a target on a phone): nine keys, off until a
// cell is selected.
func checkPracticePad(t *testing.T, pad *goquery.Selection) {
	t.Helper()
	if keys := pad.Find("button[data-digit]"); keys.Length() != 9 || keys.Filter("[disabled]").Length() != 9 {
		t.Errorf("practice pad: %d keys, %d disabled", keys.Length(), keys.Filter("[disabled]").Length())
	}
}
