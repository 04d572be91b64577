package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestNextBrowser solves a puzzle on its page in Chromium, against a real
// `sudoku serve`, presses "Next puzzle" and lands on another archived
// puzzle this browser has not played; then solves that one and asks for
// a harder one, which is neither of the two.
func TestNextBrowser(t *testing.T) {
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	shots := screenshotDir(t)
	ps := map[int64]apiPuzzle{}
	var first apiPuzzle
	for i, s := range []string{bEasy, bOther, bHardish} {
		p := submitAPI(t, base, s)
		ps[p.ID] = p
		if i == 0 {
			first = p
		}
	}
	waitGraded(t, base, 30*time.Second)
	played := []int64{first.ID}
	solveOnPage(t, ctx, base, first)
	screenshot(t, ctx, shots, "40-next-solved")
	chromeStep(t, ctx, "Next puzzle", press("play-next"))
	second := landedOn(t, ctx, base, ps, played)
	played = append(played, second.ID)
	solveOnPage(t, ctx, base, second)
	chromeStep(t, ctx, "Harder", press("play-next-harder"))
	third := landedOn(t, ctx, base, ps, played)
	t.Logf("played #%d, then #%d, then opened #%d", first.ID, second.ID, third.ID)
}

// solveOnPage opens p's page (unless it is open) and types its solution
// by keyboard, waiting for the solved state.
func solveOnPage(t *testing.T, ctx context.Context, base string, p apiPuzzle) {
	t.Helper()
	url := fmt.Sprintf("%s/puzzles/%d", base, p.ID)
	if chromeJS[string](t, ctx, `location.href`) != url {
		chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(url), chromedp.WaitVisible(tidSel("play-board")))
	}
	waitPlay(t, ctx, "the board is ready", func(c []playCell) bool { return len(c) == 81 && c[0].Class != "" })
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
