package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// longestTraces are the puzzles with the longest trace of their collection
// under engine 2 (found by tracing every puzzle of it once): 63,122 steps in
// forum_hardest_1106 (line 256), 56,648 in forum_hardest_1905_11plus_even
// (line 15,897), 85,191 in 17_clue (line 10,646, the longest of all) and
// 32,416 in magictour_top1465 (line 1,304).
var longestTraces = map[string]string{
	"forum_hardest_1106":             "..3......4...8..36..8...1...4..6..73...9..........2..5..4.7..686........7..6..5..",
	"forum_hardest_1905_11plus_even": "........1.....2.3..34.1.5.....2......63.4..5.7.....4.6...8...1..16.2...59.....6..",
	"17_clue":                        "................12..3.45.........3.......1.....62.7......4...86.1.......5...9.4..",
	"magictour_top1465":              "1...49....6.3.................5..1.74.2....9.3.........7.6..9........42........1.",
}

// TestTraceThroughAPI archives puzzles from every collection in a real
// store behind the real server, fetches each one's trace through the API
// and replays it from the givens: every step must be legal, the replay must
// pass through the stored solution, and the trace's counts must agree with
// the stored measures as internal/sudoku documents them.
func TestTraceThroughAPI(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "sudoku.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := httptest.NewServer(web.New(web.AllParts(db), web.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(srv.Close)

	for _, file := range puzzletest.Collections {
		name := strings.TrimSuffix(file, ".txt")
		puzzles := firstLines(t, file, 4)
		if p, ok := longestTraces[name]; ok {
			puzzles = append(puzzles, p)
		}
		for i, p := range puzzles {
			t.Run(fmt.Sprintf("%s/%d", name, i+1), func(t *testing.T) { checkTrace(t, srv.URL, p, true) })
		}
	}
	// A puzzle with two solutions replays legally and reaches the stored
	// one; its counts depend on the order of the search, so only that.
	t.Run("not unique", func(t *testing.T) {
		checkTrace(t, srv.URL, "483921657967345821251876493548...................................................", false)
	})
}

// firstLines reads the first n puzzles of a collection.
func firstLines(t *testing.T, name string, n int) []string {
	t.Helper()
	var out []string
	for _, l := range puzzletest.Lines(t, name, n) {
		out = append(out, l[:81])
	}
	return out
}

// checkTrace archives puzzle through the API, fetches its trace and replays it.
func checkTrace(t *testing.T, base, puzzle string, unique bool) {
	var p record.Puzzle
	res := postJSON(t, base+"/api/puzzles", `{"puzzle":"`+puzzle+`"}`, &p)
	if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
		t.Fatalf("submit: %d", res.StatusCode)
	}
	if p.Unique != unique {
		t.Fatalf("unique %v, want %v", p.Unique, unique)
	}
	steps := fetchTrace(t, base, p.ID)
	r := replayTrace(t, p, steps)
	if r.solvedAt < 0 {
		t.Fatal("the replay never reaches the solution")
	}
	if !unique {
		return
	}
	// As documented in internal/sudoku: for an untruncated trace of a puzzle
	// with one solution, guess steps = backtracks, distinct branch points
	// = guesses; nodes = 1 + guessed digits placed. The whole tree is
	// explored, so every guess is taken back: the player's "backtracks so
	// far" (undo steps that remove a guessed digit) ends at backtracks.
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"guess steps vs backtracks", r.guessSteps, p.Backtracks},
		{"branch points vs guesses", r.branchPoints, p.Guesses},
		{"1 + guess steps vs nodes", 1 + r.guessSteps, p.Nodes},
		{"undone guesses vs backtracks", r.undoneGuesses, p.Backtracks},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d (%d steps)", c.name, c.got, c.want, len(steps))
		}
	}
}

// fetchTrace GETs the whole trace of puzzle id; a truncated one fails t.
func fetchTrace(t *testing.T, base string, id int64) []sudoku.Step {
	t.Helper()
	var tr struct {
		Steps     []sudoku.Step `json:"steps"`
		Truncated bool          `json:"truncated"`
	}
	res, err := http.Get(fmt.Sprintf("%s/api/puzzles/%d/trace", base, id))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("trace: %d", res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(&tr); err != nil {
		t.Fatalf("trace: %v", err)
	}
	if tr.Truncated {
		t.Fatalf("trace of %d steps truncated (cap %d)", len(tr.Steps), sudoku.DefaultMaxSteps)
	}
	return tr.Steps
}

// traceReplay is a trace replayed from the givens so far: the board, and
// the counts the stored measures are checked against.
type traceReplay struct {
	board                                   sudoku.Grid
	filled                                  int
	solvedAt                                int          // the step that first fills the grid, or -1
	guessSteps, undoneGuesses, branchPoints int64        // see checkTrace
	guessed                                 map[int]bool // cells holding a guessed digit now
}

// replayTrace replays steps on p's givens: every step must be legal, and
// the first full grid must be p's stored solution.
func replayTrace(t *testing.T, p record.Puzzle, steps []sudoku.Step) *traceReplay {
	t.Helper()
	r := &traceReplay{board: p.Givens, filled: p.Givens.Clues(), solvedAt: -1, guessed: map[int]bool{}}
	for i, s := range steps {
		c, d := int(s.Cell), s.Digit
		if c > 80 || d < 1 || d > 9 {
			t.Fatalf("step %d: %+v out of range", i+1, s)
		}
		switch s.Kind {
		case sudoku.Forced, sudoku.Guess:
			r.place(t, steps, i, p.Solution)
		case sudoku.Undo:
			if r.board[c] != d {
				t.Fatalf("step %d: undo %d from cell %d, which holds %d", i+1, d, c, r.board[c])
			}
			r.board[c] = 0
			r.filled--
			if r.guessed[c] {
				r.undoneGuesses++
				delete(r.guessed, c)
			}
		default:
			t.Fatalf("step %d: unknown kind %v", i+1, s.Kind)
		}
	}
	return r
}

// place plays the placement steps[i] (forced or a guess), which must go
// into an empty cell without a clash.
func (r *traceReplay) place(t *testing.T, steps []sudoku.Step, i int, solution sudoku.Grid) {
	t.Helper()
	s := steps[i]
	c, d := int(s.Cell), s.Digit
	if r.board[c] != 0 {
		t.Fatalf("step %d: %s %d into cell %d, which holds %d", i+1, s.Kind, d, c, r.board[c])
	}
	if clash := clashes(r.board, c, d); clash >= 0 {
		t.Fatalf("step %d: %s %d into cell %d clashes with cell %d", i+1, s.Kind, d, c, clash)
	}
	r.board[c] = d
	r.filled++
	if s.Kind == sudoku.Guess {
		r.guessSteps++
		r.guessed[c] = true
		// The next candidate of the same branch point follows the undo
		// of the previous one at that cell; any other guess opens a
		// branch point.
		prev := sudoku.Step{}
		if i > 0 {
			prev = steps[i-1]
		}
		if !(prev.Kind == sudoku.Undo && int(prev.Cell) == c && prevWasGuess(steps, i-1)) {
			r.branchPoints++
		}
	}
	if r.filled == 81 && r.solvedAt < 0 {
		r.solvedAt = i + 1
		if r.board != solution {
			t.Fatalf("step %d: full grid %s is not the stored solution %s", i+1, r.board, solution)
		}
	}
}

// prevWasGuess reports whether the undo step at j took back a guess: the
// placement it removes is the last placement of that cell before j.
func prevWasGuess(steps []sudoku.Step, j int) bool {
	for k := j - 1; k >= 0; k-- {
		if steps[k].Cell == steps[j].Cell && steps[k].Kind != sudoku.Undo {
			return steps[k].Kind == sudoku.Guess
		}
	}
	return false
}

// clashes returns a peer of cell c that holds d on board, or -1.
func clashes(board sudoku.Grid, c int, d uint8) int {
	r, col := c/9, c%9
	br, bc := r/3*3, col/3*3
	for k := range 9 {
		for _, p := range []int{r*9 + k, k*9 + col, (br+k/3)*9 + bc + k%3} {
			if p != c && board[p] == d {
				return p
			}
		}
	}
	return -1
}

// postJSON posts body and decodes the answer into out.
func postJSON(t *testing.T, url, body string, out any) *http.Response {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	return res
}
