package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// hardish is rated 7.x by Sudoku Explainer: its path needs chains.
const hardish = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

// TestAPIExplain archives puzzles through the API and explains them: the
// path replays from the givens to the solution, every step agrees with the
// solution, and its grade is the one stored with the puzzle.
func TestAPIExplain(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, text := range []string{easy, hardish} {
		rec := post(t, s, "/api/puzzles", puzzleBody(text))
		var p record.Puzzle
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || rec.Code != http.StatusCreated {
			t.Fatalf("submit: %d %s", rec.Code, rec.Body)
		}
		rec = get(t, s, fmt.Sprintf("/api/puzzles/%d/explain", p.ID))
		if rec.Code != http.StatusOK {
			t.Fatalf("explain: %d %s", rec.Code, rec.Body)
		}
		var ex struct {
			Grade      float64      `json:"grade"`
			Technique  string       `json:"technique"`
			GradeFloor bool         `json:"grade_floor"`
			GradeEP    float64      `json:"grade_ep"`
			GradeED    float64      `json:"grade_ed"`
			Techniques []string     `json:"techniques"`
			Steps      []logic.Step `json:"steps"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		// The submission is answered before its grade (the graders
		// give it); the explanation's figures are the grade's.
		if p.GradeStatus != record.GradePending {
			t.Errorf("submit answered grade_status %q, want pending", p.GradeStatus)
		}
		want := p
		logic.GradePuzzle(&want)
		if ex.Grade != *want.Grade || ex.Technique != want.Technique || ex.GradeEP != *want.GradeEP ||
			ex.GradeED != *want.GradeED || !slices.Equal(ex.Techniques, want.Techniques.Names()) {
			t.Errorf("explained %.1f %q ep %.1f ed %.1f %q; the grade is %v %q %v %v %q", ex.Grade, ex.Technique,
				ex.GradeEP, ex.GradeED, ex.Techniques, *want.Grade, want.Technique, *want.GradeEP, *want.GradeED, want.Techniques)
		}
		if !(ex.GradeED <= ex.GradeEP && ex.GradeEP <= ex.Grade) || len(ex.Techniques) == 0 {
			t.Errorf("figures ed %.1f ep %.1f grade %.1f techniques %q: want ed <= ep <= grade and some techniques",
				ex.GradeED, ex.GradeEP, ex.Grade, ex.Techniques)
		}
		board := p.Givens
		for i, st := range ex.Steps {
			if st.Text == "" || st.Technique == "" {
				t.Errorf("step %d has no text or technique: %+v", i, st)
			}
			for _, e := range st.Eliminations {
				if p.Solution[e.Cell] == uint8(e.Digit) {
					t.Fatalf("step %d (%s) removes the solution's %d from cell %d", i, st.Text, e.Digit, e.Cell)
				}
			}
			for _, pl := range st.Placements {
				if p.Solution[pl.Cell] != uint8(pl.Digit) || board[pl.Cell] != 0 {
					t.Fatalf("step %d (%s) places %d in cell %d", i, st.Text, pl.Digit, pl.Cell)
				}
				board[pl.Cell] = uint8(pl.Digit)
			}
		}
		if board != p.Solution {
			t.Errorf("the explained path ends at %s, not the solution", board)
		}
	}
	if rec := get(t, s, "/api/puzzles/999/explain"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown puzzle: %d", rec.Code)
	}
}

// TestAPIHint asks for hints from several progresses.
func TestAPIHint(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	g, _ := sudoku.Parse(easy)
	res, err := sudoku.Solve(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := func(puzzle, progress string) string {
		b, _ := json.Marshal(map[string]string{"puzzle": puzzle, "progress": progress})
		return string(b)
	}
	// From the givens, and from half way: a step that agrees with the
	// solution and does something.
	half := g
	for i := range 40 {
		half[i] = res.Solution[i]
	}
	for _, progress := range []string{easy, half.String()} {
		rec := post(t, s, "/api/hint", body(easy, progress))
		var r struct{ Step logic.Step }
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("hint: %d %s", rec.Code, rec.Body)
		}
		if len(r.Step.Placements)+len(r.Step.Eliminations) == 0 || r.Step.Text == "" {
			t.Errorf("hint does nothing: %+v", r.Step)
		}
		for _, pl := range r.Step.Placements {
			if res.Solution[pl.Cell] != uint8(pl.Digit) {
				t.Errorf("hint places %d in cell %d", pl.Digit, pl.Cell)
			}
		}
	}
	// Without progress: from the givens.
	if rec := post(t, s, "/api/hint", puzzleBody(easy)); rec.Code != http.StatusOK {
		t.Errorf("hint without progress: %d %s", rec.Code, rec.Body)
	}
	// Wrong digits: 422 naming them.
	wrong := []byte(easy)
	wrong[0] = '1' + (res.Solution[0] % 9) // another digit than the solution's
	wrong[80] = '1' + (res.Solution[80] % 9)
	rec := post(t, s, "/api/hint", body(easy, string(wrong)))
	var e struct {
		Error string `json:"error"`
		Cells []int  `json:"cells"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != http.StatusUnprocessableEntity ||
		len(e.Cells) != 2 || e.Cells[0] != 0 || e.Cells[1] != 80 {
		t.Errorf("wrong digits: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		msg        string
	}{
		{"a given changed", body(easy, easy[:2]+"6"+easy[3:]), http.StatusUnprocessableEntity, "given at r1c3"},
		{"solved", body(easy, res.Solution.String()), http.StatusUnprocessableEntity, "solved"},
		{"several solutions", body("."+easy[1:30]+strings.Repeat(".", 51), ""), http.StatusUnprocessableEntity, "more than one solution"},
		{"no puzzle", `{"progress": "1"}`, http.StatusBadRequest, "puzzle"},
		{"bad text", body("12x", ""), http.StatusBadRequest, "position"},
		{"unknown field", `{"puzzle": "` + easy + `", "x": 1}`, http.StatusBadRequest, "x"},
		{"too large", `{"puzzle": "` + easy + `", "progress": "` + strings.Repeat(" ", 70000) + `"}`, http.StatusRequestEntityTooLarge, "64 KiB"},
	} {
		rec := post(t, s, "/api/hint", tc.body)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.msg) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, rec.Code, rec.Body, tc.status, tc.msg)
		}
	}
	if rec := do(t, s, request{method: http.MethodPost, path: "/api/hint", body: easy, contentType: "text/plain"}); rec.Code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", rec.Code)
	}
}

// TestAPIExplainSeveralSolutions: a puzzle with several solutions has no
// logical path. The docs promise 422 with the reason; it answered 500 and
// logged an ERROR.
func TestAPIExplainSeveralSolutions(t *testing.T) {
	var logs logSink
	s, _ := newTestServer(t, Config{Logger: logs.logger()})
	several := "1" + empty[1:] // one given: many solutions
	rec := post(t, s, "/api/puzzles", puzzleBody(several))
	if rec.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	p := decode[record.Puzzle](t, rec)
	if p.Unique {
		t.Fatalf("puzzle %s is stored as unique", several)
	}
	rec = get(t, s, fmt.Sprintf("/api/puzzles/%d/explain", p.ID))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("explain a puzzle with several solutions: %d %s, want 422", rec.Code, rec.Body)
	}
	if msg := decode[apiErr](t, rec).Error; !strings.Contains(msg, "more than one solution") {
		t.Errorf("error %q does not say why", msg)
	}
	if l := logs.String(); strings.Contains(l, "level=ERROR") {
		t.Errorf("a client's request logged an error:\n%s", l)
	}
}

// TestHintIsExplanationsFirstStep asks for a hint on the untouched board
// of archived puzzles, easy and hard, each as its collection writes it: the
// hint is the explanation's first step (issue 46: a hint on a puzzle graded
// 11.1 offered another step, found on the board as written where the
// explanation solves the canonical form).
func TestHintIsExplanationsFirstStep(t *testing.T) {
	racefree.Only(t)
	s, _ := newTestServer(t, Config{})
	n := 10
	if testing.Short() {
		n = 4
	}
	var ps []string
	for _, c := range []string{puzzletest.Kaggle, puzzletest.Diabolical, puzzletest.SeventeenClue, puzzletest.Top1465} {
		ps = append(ps, puzzletest.Lines(t, c, n)...)
	}
	ps = append(ps, hardish, "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6")
	for _, text := range ps {
		rec := post(t, s, "/api/puzzles", puzzleBody(text))
		var p record.Puzzle
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || rec.Code != http.StatusCreated && rec.Code != http.StatusOK {
			t.Fatalf("submit: %d %s", rec.Code, rec.Body)
		}
		rec = get(t, s, fmt.Sprintf("/api/puzzles/%d/explain", p.ID))
		var ex struct {
			Steps []json.RawMessage `json:"steps"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &ex); err != nil || rec.Code != http.StatusOK || len(ex.Steps) == 0 {
			t.Fatalf("explain %s: %d %s", text, rec.Code, rec.Body)
		}
		rec = post(t, s, "/api/hint", puzzleBody(text))
		var hint struct {
			Step json.RawMessage `json:"step"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &hint); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("hint %s: %d %s", text, rec.Code, rec.Body)
		}
		if string(hint.Step) != string(ex.Steps[0]) {
			t.Errorf("%s: the hint is\n%s\nthe explanation's first step\n%s", text, hint.Step, ex.Steps[0])
		}
	}
}
