package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestPlayersBrowser is the players' whole flow in Chromium against a real
// `sudoku serve`: play a puzzle to the end (a Check and a hint on the way),
// see it recorded on /me, sign up, log out, log in: it is still there;
// then, logged in, make a collection and page through it
// (checkCollectionsBrowser).
func TestPlayersBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	shots := screenshotDir(t)
	p := submitAPI(t, base, bEasy)

	chromeStep(t, ctx, "open the puzzle",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)),
		chromedp.WaitVisible(tidSel("play-board")),
	)
	waitPlay(t, ctx, "the board is ready", func(c []playCell) bool { return len(c) == 81 && c[0].Class != "" })
	chromeStep(t, ctx, "a Check and a hint", chromedp.Focus(cellSel(0)), press("play-check"), press("play-hint"), chromedp.WaitVisible(tidSel("hint-box")))
	chromeStep(t, ctx, "back to the board", chromedp.Focus(cellSel(0)))
	for r := range 9 {
		board := readPlay(t, ctx)
		chromeStep(t, ctx, fmt.Sprintf("row %d", r+1), keys(rowKeys(board, p.Solution, r)))
	}
	chromeStep(t, ctx, "finished and recorded", chromedp.WaitVisible(tidSel("play-done")), chromedp.WaitVisible(tidSel("play-recorded")))
	// The first finish is counted, so the board says how it moved the
	// player's rating (a new player starts at 1,500).
	chromeStep(t, ctx, "the rating moved", chromedp.WaitVisible(tidSel("play-rating")))
	rating := chromeValue(t, ctx, "rating line", chromedp.Text(tidSel("play-rating")))
	if !regexp.MustCompile(`^Your rating: 1,500 → [0-9],[0-9]{3}\.$`).MatchString(rating) {
		t.Errorf("rating line %q, want \"Your rating: 1,500 → n,nnn.\"", rating)
	}
	screenshot(t, ctx, shots, "40-players-recorded")

	chromeStep(t, ctx, "my page", chromedp.Click(`[data-testid="play-recorded"] a`), chromedp.WaitVisible(tidSel("me-cards")))
	checkMe(t, ctx, p.ID)
	screenshot(t, ctx, shots, "41-players-me-anonymous")

	chromeStep(t, ctx, "sign up",
		chromedp.Click(tidSel("me-signup")), chromedp.WaitVisible(tidSel("account-form")),
		chromedp.SendKeys(tidSel("name"), "ann"), chromedp.SendKeys(tidSel("password"), "correct horse battery"),
		chromedp.Click(tidSel("account-submit")), chromedp.WaitVisible(tidSel("me-name")),
	)
	checkMe(t, ctx, p.ID)
	chromeStep(t, ctx, "log out", chromedp.Click(tidSel("logout")), chromedp.WaitVisible(tidSel("logged-out")))
	chromeStep(t, ctx, "my page, logged out", chromedp.Navigate(base+"/me"), chromedp.WaitVisible(tidSel("me-empty")))
	chromeStep(t, ctx, "log in",
		chromedp.Navigate(base+"/login"), chromedp.WaitVisible(tidSel("account-form")),
		chromedp.SendKeys(tidSel("name"), "ann"), chromedp.SendKeys(tidSel("password"), "correct horse battery"),
		chromedp.Click(tidSel("account-submit")), chromedp.WaitVisible(tidSel("me-name")),
	)
	checkMe(t, ctx, p.ID)
	screenshot(t, ctx, shots, "42-players-me-after-login")
	checkCollectionsBrowser(t, ctx, base, shots, []int64{p.ID, submitAPI(t, base, bOther).ID})
}

// checkMe checks that /me shows one solved attempt at puzzle id, with its
// check and hint counted.
func checkMe(t *testing.T, ctx context.Context, id int64) {
	t.Helper()
	text := func(testid string) string {
		return strings.TrimSpace(chromeJS[string](t, ctx, `(document.querySelector('[data-testid="`+testid+`"]') || {textContent: ""}).textContent`))
	}
	if got := text("me-solved"); got != "1" {
		t.Errorf("solved on /me: %q, want 1", got)
	}
	rows := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-testid="me-attempt"]')).map(r => r.textContent.replace(/\s+/g, " "))`)
	if len(rows) != 1 || !strings.Contains(rows[0], fmt.Sprintf("#%d", id)) || !strings.Contains(rows[0], "solved (first)") {
		t.Errorf("attempts on /me: %q", rows)
	}
	if chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="me-chart-mark"]').length`) != 1 {
		t.Error("the chart of my times has no mark")
	}
	deadline := time.Now().Add(time.Second)
	for text("me-try-again") == "" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := text("me-try-again"); !strings.Contains(got, "with 1 hint") {
		t.Errorf("try again on /me: %q, want the puzzle solved with a hint", got)
	}
}
