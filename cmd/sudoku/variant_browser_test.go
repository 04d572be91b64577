package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// variantByMouse is how many of a variant's last empty cells the test
// plays by mouse (a click on the cell, then the digit); the rest it types
// row by row from the keyboard.
const variantByMouse = 4

// TestVariantBrowser (issue 49): a killer and a thermometer puzzle,
// submitted through the API, open on their pages with the rules drawn in
// SVG and are solved to the end, most cells typed from the keyboard and
// the last ones clicked and typed, until the board says solved; then the
// variant pages and the pages that browse variants (the history's variant
// filter, the home page's "Recent variants", /stats' variant table) pass
// the page walk's checks at 390 px in light and dark: no sideways scroll,
// no target under 24×24 px, and no serious or critical axe-core finding.
func TestVariantBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	axe := axeSource(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	killer := submitVariant(t, base, "killer-1")
	thermo := submitVariant(t, base, "thermo-1")
	shots := screenshotDir(t)
	t.Run("killer", func(t *testing.T) { solveVariant(t, ctx, base, killer, shots, "killer", ".v-cage", ".v-cage-total") })
	t.Run("thermometer", func(t *testing.T) {
		solveVariant(t, ctx, base, thermo, shots, "thermo", ".v-thermo-line", ".v-thermo-bulb")
	})
	t.Run("the browse pages", func(t *testing.T) {
		for path, shot := range map[string]string{"/": "home", "/stats": "stats", "/puzzles?variant=killer": "history-killer"} {
			chromeStep(t, ctx, "open "+path, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")))
			screenshot(t, ctx, shots, "49-browse-"+shot)
		}
	})
	t.Run("390 px and axe", func(t *testing.T) {
		pages := []string{fmt.Sprintf("/puzzles/%d", killer.ID), fmt.Sprintf("/puzzles/%d", thermo.ID), "/puzzles?variant=killer", "/", "/stats"}
		variantWalk(t, ctx, base, axe, pages)
	})
}

// submitVariant posts the variant test set's puzzle name through the API
// and returns the archived puzzle with its solution.
func submitVariant(t *testing.T, base, name string) apiPuzzle {
	t.Helper()
	body, err := json.Marshal(map[string]string{"puzzle": varianttest.Puzzle(t, name).Text()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(base+"/api/puzzles", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p apiPuzzle
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil || p.ID == 0 || len(p.Solution) != 81 {
		t.Fatalf("submit %s: %v (%d)", name, err, res.StatusCode)
	}
	return p
}

// solveVariant opens p's page, finds the rule's shapes in the board's
// SVG, types the solution into every empty cell but the last few from the
// keyboard, clicks and types those, and waits for the solved board.
func solveVariant(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots, name string, shapes ...string) {
	chromeStep(t, ctx, "open the variant", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(chromedp.CSS("#play-board")))
	for _, s := range shapes {
		if n := chromeJS[int](t, ctx, `document.querySelectorAll('#play svg.variant-overlay `+s+`').length`); n == 0 {
			t.Errorf("no %s drawn in the board's SVG", s)
		}
	}
	board := readPlay(t, ctx)
	var empty []int
	for i, c := range board {
		if c.V == "" {
			empty = append(empty, i)
		}
	}
	if len(empty) <= variantByMouse {
		t.Fatalf("%d empty cells: too few to play", len(empty))
	}
	byMouse := empty[len(empty)-variantByMouse:]
	chromeStep(t, ctx, "to the first cell", chromedp.Focus(cellSel(0)))
	for r := range 9 {
		chromeStep(t, ctx, fmt.Sprintf("row %d by keyboard", r+1), keys(variantRowKeys(board, p.Solution, r, byMouse)))
	}
	for _, i := range byMouse {
		chromeStep(t, ctx, fmt.Sprintf("r%dc%d by mouse", i/9+1, i%9+1), chromedp.Click(cellSel(i)), keys(p.Solution[i:i+1]))
	}
	chromeStep(t, ctx, "solved", chromedp.WaitVisible(tidSel("play-done")))
	if got := boardText(readPlay(t, ctx)); got != p.Solution {
		t.Errorf("solved board\n%s\nwant\n%s", got, p.Solution)
	}
	if st := playStatus(t, ctx); !strings.Contains(st, "Solved") {
		t.Errorf("status at the end: %q", st)
	}
	screenshot(t, ctx, shots, "49-variant-"+name+"-solved")
}

// variantRowKeys are the keys that fill row r from its first cell with
// the solution, but for the cells of skip (played by mouse), then move
// to the start of the next row.
func variantRowKeys(board []playCell, solution string, r int, skip []int) string {
	var b strings.Builder
	for c := range 9 {
		i := r*9 + c
		if board[i].V == "" && !slices.Contains(skip, i) {
			b.WriteString(solution[i : i+1])
		}
		if c < 8 {
			b.WriteString(kb.ArrowRight)
		}
	}
	if r < 8 {
		b.WriteString(kb.ArrowDown + kb.Home)
	}
	return b.String()
}

// variantWalk opens each of pages at 390 px, light and dark, with the
// page walk's checks (TestPagesBrowser): no sideways scroll, at light no
// target under 24×24 px, and axe-core (when SUDOKU_AXE names it) finds no
// serious or critical violation.
func variantWalk(t *testing.T, ctx context.Context, base, axe string, pages []string) {
	defer chromeStep(t, ctx, "back to a light desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	for _, scheme := range []string{"light", "dark"} {
		chromeStep(t, ctx, "a phone, "+scheme, chromedp.EmulateReset(), chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), colorScheme(scheme))
		for _, path := range pages {
			where := fmt.Sprintf("%s at 390 px, %s", path, scheme)
			chromeStep(t, ctx, "open "+where, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")))
			checkPage(t, ctx, where, 390, scheme == "light", axe)
		}
	}
}
