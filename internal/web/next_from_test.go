package web_test

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// gradedPuzzles archives mixedPuzzles through anon, grades them and
// returns them as the API shows them, easiest grade first.
func gradedPuzzles(t *testing.T, a *archive, anon *player) []puzzle {
	var ps []puzzle
	for _, s := range mixedPuzzles(t) {
		ps = append(ps, anon.submit(s))
	}
	a.grade()
	for i := range ps {
		anon.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", ps[i].ID), "", http.StatusOK, &ps[i])
	}
	ps = slices.DeleteFunc(ps, func(p puzzle) bool { return p.Grade == nil })
	slices.SortStableFunc(ps, func(x, y puzzle) int { return int(math.Round((*x.Grade - *y.Grade) * 10)) })
	return ps
}

// TestNextFromAPI: GET /api/next&from=: Harder gives a higher grade than
// the from puzzle, Easier a lower one, Next another puzzle, none of them
// the from puzzle or another way of writing it; the ends are 404s that say
// which way nothing is left; a bad or unknown from is a 400 or a 404.
func TestNextFromAPI(t *testing.T) {
	racefree.Only(t)
	a := newArchive(t)
	anon := a.player()
	ps := gradedPuzzles(t, a, anon)
	mid := ps[len(ps)/2]
	other := anon.submit(relabel(mid.Puzzle)) // mid written another way
	last := ps[len(ps)-1]
	for _, tc := range []struct {
		move string
		from puzzle
		cmp  int // the grade's move: +1 higher, -1 lower, 0 any
	}{
		{"harder=1&", mid, 1}, {"easier=1&", mid, -1}, {"", mid, 0},
		{"harder=1&", other, 1}, {"harder=1&", ps[0], 1}, {"easier=1&", last, -1},
	} {
		query := fmt.Sprintf("?%sfrom=%d", tc.move, tc.from.ID)
		var got puzzle
		anon.json(http.MethodGet, "/api/next"+query, "", http.StatusOK, &got)
		if got.ID == tc.from.ID || got.ID == mid.ID && tc.from.ID == other.ID || got.ID == other.ID || got.Grade == nil {
			t.Errorf("next%s gave #%d, the from puzzle or its class (or no grade)", query, got.ID)
			continue
		}
		grade := *mid.Grade // other's is mid's
		if tc.from.Grade != nil {
			grade = *tc.from.Grade
		}
		if d := *got.Grade - grade; tc.cmp > 0 && d <= 0 || tc.cmp < 0 && d >= 0 {
			t.Errorf("next%s gave grade %.1f from %.1f", query, *got.Grade, grade)
		}
	}
	for _, tc := range []struct {
		query  string
		status int
		says   string
	}{
		{fmt.Sprintf("?harder=1&from=%d", ps[len(ps)-1].ID), http.StatusNotFound, "no harder puzzle than #"},
		{fmt.Sprintf("?easier=1&from=%d", ps[0].ID), http.StatusNotFound, "no easier puzzle than #"},
		{"?harder=1&from=99999", http.StatusNotFound, `\"from\": no puzzle #99999`},
		{"?from=abc", http.StatusBadRequest, "from"},
		{"?from=01", http.StatusBadRequest, "from"},
	} {
		status, b, _ := anon.call(http.MethodGet, "/api/next"+tc.query, "")
		if status != tc.status || !strings.Contains(string(b), tc.says) {
			t.Errorf("next%s: %d %s, want %d saying %q", tc.query, status, b, tc.status, tc.says)
		}
	}
}

// TestNextFromLevel: a player with one solve of their own starts from the
// puzzle just solved, not from NewPlayerSeconds: Next aims at the time the
// model expects of them there, Harder and Easier a step either side of
// it, whatever their own seconds were.
func TestNextFromLevel(t *testing.T) {
	racefree.Only(t)
	a := newArchive(t)
	p := a.player()
	ps := gradedPuzzles(t, a, p)
	hard := ps[len(ps)-2]
	p.play(hard, true)
	targets := map[string]int64{}
	for _, move := range []string{"", "harder=1&", "easier=1&"} {
		var got puzzle
		p.json(http.MethodGet, fmt.Sprintf("/api/next?%sfrom=%d", move, hard.ID), "", http.StatusOK, &got)
		if got.ID == hard.ID {
			t.Errorf("next?%sfrom: the puzzle just solved", move)
		}
		targets[move] = got.Target
	}
	if targets[""] == web.NewPlayerSeconds {
		t.Errorf("one solve: Next aims at the newcomer's %d s", targets[""])
	}
	up, down := float64(targets["harder=1&"])/float64(targets[""]), float64(targets[""])/float64(targets["easier=1&"])
	if math.Abs(up-web.NextStep) > 0.02 || math.Abs(down-web.NextStep) > 0.02 {
		t.Errorf("targets %v: Harder and Easier are not a step either side of Next's", targets)
	}
	// Without from, the one solve's own seconds (a few: it was played at
	// once) are the level, as before.
	var got puzzle
	p.json(http.MethodGet, "/api/next", "", http.StatusOK, &got)
	if got.Target >= targets[""] {
		t.Errorf("next without from aims at %d s, from the hard puzzle at %d s", got.Target, targets[""])
	}
}

// TestAPIHumanSort: GET /api/puzzles keeps sort=difficulty as its default
// (most backtracks first), and sort=human lists the graded puzzles by the
// grade's time (no plays here), hardest first, paging by cursor.
func TestAPIHumanSort(t *testing.T) {
	racefree.Only(t)
	a := newArchive(t)
	anon := a.player()
	ps := gradedPuzzles(t, a, anon)
	type listPage struct {
		Puzzles []puzzle `json:"puzzles"`
		Next    *string  `json:"next_cursor"`
	}
	var page listPage
	anon.json(http.MethodGet, "/api/puzzles?limit=100", "", http.StatusOK, &page)
	if !slices.IsSortedFunc(page.Puzzles, func(x, y puzzle) int { return int(y.Backtracks - x.Backtracks) }) {
		t.Error("the API's default order is no longer most backtracks first")
	}
	var got []puzzle
	path := "/api/puzzles?sort=human&limit=3"
	for {
		page = listPage{} // a fresh one: the decoder writes through a reused page's grade pointers
		anon.json(http.MethodGet, path, "", http.StatusOK, &page)
		got = append(got, page.Puzzles...)
		if page.Next == nil {
			break
		}
		path = "/api/puzzles?sort=human&limit=3&cursor=" + *page.Next
	}
	if len(got) != len(ps) {
		t.Fatalf("sort=human listed %d puzzles, want %d", len(got), len(ps))
	}
	for i := 1; i < len(got); i++ {
		if *got[i].Grade > *got[i-1].Grade || *got[i].Grade == *got[i-1].Grade && got[i].ID > got[i-1].ID { // desc: ties by id, high first
			t.Errorf("sort=human: #%d (%.1f) after #%d (%.1f)", got[i].ID, *got[i].Grade, got[i-1].ID, *got[i-1].Grade)
		}
	}
}
