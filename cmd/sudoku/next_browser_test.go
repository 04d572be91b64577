package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestNextBrowser solves an easy puzzle on its page in Chromium, against
// a real `sudoku serve` over puzzles of several grades, presses "Harder"
// and lands on an unplayed puzzle of a higher grade; solves that one,
// presses "Easier" and lands on one of a lower grade than it (not the
// first); solves that, presses "Next puzzle" and lands on a fourth.
func TestNextBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	shots := screenshotDir(t)
	ps := map[int64]apiPuzzle{}
	texts := []string{bEasy, bOther, bHardish}
	for _, c := range []struct {
		name string
		n    int
	}{{puzzletest.Kaggle, 4}, {puzzletest.SeventeenClue, 3}, {puzzletest.Top1465, 2}} {
		for _, l := range puzzletest.Lines(t, c.name, c.n) {
			texts = append(texts, l[:81])
		}
	}
	for _, s := range texts {
		p := submitAPI(t, base, s)
		ps[p.ID] = p
	}
	waitGraded(t, base, 30*time.Second)
	grades := map[int64]float64{}
	for id := range ps {
		grades[id] = gradeOf(t, base, id)
	}
	first := ps[slices.MinFunc(slices.Collect(maps.Keys(ps)), func(x, y int64) int {
		return cmp.Or(cmp.Compare(grades[x], grades[y]), cmp.Compare(x, y))
	})]
	played := []int64{first.ID}
	solveOnPage(t, ctx, base, first)
	screenshot(t, ctx, shots, "40-next-solved")
	chromeStep(t, ctx, "Harder", press("play-next-harder"))
	second := landedOn(t, ctx, base, ps, played)
	if grades[second.ID] <= grades[first.ID] {
		t.Errorf("Harder after #%d (grade %.1f) opened #%d of grade %.1f", first.ID, grades[first.ID], second.ID, grades[second.ID])
	}
	played = append(played, second.ID)
	solveOnPage(t, ctx, base, second)
	chromeStep(t, ctx, "Easier", press("play-next-easier"))
	third := landedOn(t, ctx, base, ps, played)
	if grades[third.ID] >= grades[second.ID] {
		t.Errorf("Easier after #%d (grade %.1f) opened #%d of grade %.1f", second.ID, grades[second.ID], third.ID, grades[third.ID])
	}
	played = append(played, third.ID)
	solveOnPage(t, ctx, base, third)
	chromeStep(t, ctx, "Next puzzle", press("play-next"))
	fourth := landedOn(t, ctx, base, ps, played)
	t.Logf("played #%d (%.1f), Harder #%d (%.1f), Easier #%d (%.1f), Next #%d (%.1f)", first.ID, grades[first.ID],
		second.ID, grades[second.ID], third.ID, grades[third.ID], fourth.ID, grades[fourth.ID])
}

// gradeOf reads puzzle id's grade through the API (0 for none).
func gradeOf(t *testing.T, base string, id int64) float64 {
	t.Helper()
	res, err := http.Get(fmt.Sprintf("%s/api/puzzles/%d", base, id))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct {
		Grade *float64 `json:"grade"`
	}
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if p.Grade == nil {
		return 0
	}
	return *p.Grade
}

// solveOnPage opens p's page (unless it is open) and types its solution
// by keyboard, waiting for the solved state.
func solveOnPage(t *testing.T, ctx context.Context, base string, p apiPuzzle) {
	t.Helper()
	url := fmt.Sprintf("%s/puzzles/%d", base, p.ID)
	if chromeJS[string](t, ctx, `location.href`) != url {
		chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(url), chromedp.WaitVisible(tidSel("play-board")))
	}
	chromeStep(t, ctx, "the board is playable", chromedp.WaitReady(chromedp.CSS("[data-play-section].play-ready")))
	for i := range 81 {
		if p.Puzzle[i] == '.' {
			chromeStep(t, ctx, fmt.Sprintf("cell %d", i), chromedp.Focus(cellSel(i)), keys(p.Solution[i:i+1]))
		}
	}
	chromeStep(t, ctx, "solved", chromedp.WaitVisible(tidSel("play-done")), chromedp.WaitVisible(tidSel("play-next")))
	// The finish reaches the server before Next asks (next.js waits for it).
	chromeStep(t, ctx, "recorded", chromedp.WaitVisible(tidSel("play-recorded")))
}

var puzzlePathRE = regexp.MustCompile(`/puzzles/(\d+)$`)

// landedOn waits for the browser to open a puzzle page other than those
// played and returns it, failing when it is not one of ps.
func landedOn(t *testing.T, ctx context.Context, base string, ps map[int64]apiPuzzle, played []int64) apiPuzzle {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := puzzlePathRE.FindStringSubmatch(chromeJS[string](t, ctx, `location.href`))
		if m != nil {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			if !slices.Contains(played, id) {
				p, ok := ps[id]
				if !ok {
					t.Fatalf("Next puzzle opened #%d, not one of the archive's puzzles", id)
				}
				chromeStep(t, ctx, "the next board", chromedp.WaitVisible(tidSel("play-board")))
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Next puzzle stayed on %s (status %q)", chromeJS[string](t, ctx, `location.href`), playStatus(t, ctx))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// chartContrastJS gives, for the first scatter chart of the page, the
// contrast ratio (WCAG) against the chart's background of a dot's outline
// and of its axis labels.
const chartContrastJS = `(() => {
	const rgb = (s) => (s.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
	const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
	const lum = (s) => { const [r, g, b] = rgb(s); return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b); };
	const ratio = (x, y) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
	const fig = document.querySelector("figure.scatter");
	const bg = lum(getComputedStyle(fig).backgroundColor);
	return [ratio(lum(getComputedStyle(fig.querySelector("circle.dot")).stroke), bg),
		ratio(lum(getComputedStyle(fig.querySelector(".axis-label")).fill), bg)];
})()`

// TestRatingsBrowser plays eleven puzzles three times each through the
// API, then opens /ratings on a desktop and a phone, light and dark: it
// draws a chart per measure with a dot per puzzle, nothing scrolls
// sideways, and the dots and labels stand out from the chart (3:1).
func TestRatingsBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"), "--rate-limit", "0")
	shots := screenshotDir(t)
	var ps []apiPuzzle
	for _, c := range []struct {
		name string
		n    int
	}{{puzzletest.Kaggle, 6}, {puzzletest.SeventeenClue, 5}} {
		for _, l := range puzzletest.Lines(t, c.name, c.n) {
			ps = append(ps, submitAPI(t, base, l[:81]))
		}
	}
	waitGraded(t, base, 30*time.Second)
	for range 3 {
		c := newClient(t, base)
		for _, p := range ps {
			var a attemptJSON
			c.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, p.ID), http.StatusCreated, &a)
			c.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", a.ID), solvedBody(p.Solution, 300), http.StatusOK, nil)
		}
	}
	defer chromeStep(t, ctx, "back to a light desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	for _, v := range layoutViews {
		for _, scheme := range []string{"light", "dark"} {
			where := fmt.Sprintf("/ratings on a %s, %s", v.name, scheme)
			opts := []chromedp.EmulateViewportOption{}
			if v.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			chromeStep(t, ctx, "open "+where, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, opts...), colorScheme(scheme),
				chromedp.Navigate(base+"/ratings"), chromedp.WaitVisible(tidSel("chart-grade")), chromedp.Sleep(250*time.Millisecond))
			if n := chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="chart-clues-dots"] circle').length`); n != len(ps) {
				t.Errorf("%s: %d dots in the clues chart, want %d", where, n, len(ps))
			}
			if w := chromeJS[int](t, ctx, `document.documentElement.scrollWidth`); w > int(v.width) {
				t.Errorf("%s: the page is %d px wide and scrolls sideways: %s", where, w, strings.Join(chromeJS[[]string](t, ctx, widerJS), "; "))
			}
			for i, r := range chromeJS[[]float64](t, ctx, chartContrastJS) {
				if r < 3 {
					t.Errorf("%s: the chart's %s has a contrast of %.2f:1, want 3:1 or more", where, []string{"dots", "labels"}[i], r)
				}
			}
			screenshot(t, ctx, shots, fmt.Sprintf("layout-ratings-%s-%s", v.name, scheme))
		}
	}
}
