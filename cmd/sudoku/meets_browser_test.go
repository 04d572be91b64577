package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestMeetsBrowser is what a new player meets (issue 34), in Chromium
// against a real `sudoku serve` started with the puzzle of the day on: the
// daily on a fresh server opens at once (no 503); the board's clock and
// the recorded time agree; Give up and deleting the account ask first; the
// setter's analysis follows the grid on screen (a clash clears it) and a
// hard puzzle gets its grade after "grading…".
func TestMeetsBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"), "--daily=true", "--rate-limit", "0")
	chromeStep(t, ctx, "a desktop window", chromedp.EmulateViewport(1280, 900))
	t.Run("the daily on a fresh server", func(t *testing.T) { meetsDaily(t, ctx, base) })
	t.Run("one clock", func(t *testing.T) { meetsClock(t, ctx, base) })
	t.Run("give up asks once", func(t *testing.T) { meetsGiveUp(t, ctx, base) })
	t.Run("deleting me asks for the word", func(t *testing.T) { meetsDelete(t, ctx, base) })
	t.Run("the setter: a clash and a hard puzzle", func(t *testing.T) { meetsSetter(t, ctx, base) })
}

// meetsDaily: the very first request of a server, /daily, lands on the
// puzzle of the day, not on a 503 page.
func meetsDaily(t *testing.T, ctx context.Context, base string) {
	chromeStep(t, ctx, "open /daily", chromedp.Navigate(base+"/daily"), chromedp.WaitReady("body"))
	if chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="error-page"]').length`) != 0 {
		t.Fatalf("/daily on a fresh server: %s", chromeJS[string](t, ctx, `document.body.innerText.slice(0, 300)`))
	}
	chromeStep(t, ctx, "the puzzle of the day", chromedp.WaitVisible(tidSel("daily-label")))
}

// meetsClock waits before the first move (the old board counted from the
// page's load), solves the puzzle and compares the time shown at the
// finish with the time recorded.
func meetsClock(t *testing.T, ctx context.Context, base string) {
	p := submitAPI(t, base, bEasy)
	chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("play-board")))
	waitPlay(t, ctx, "the board is ready", func(c []playCell) bool { return len(c) == 81 && c[0].Class != "" })
	time.Sleep(2500 * time.Millisecond) // looking at the puzzle, not playing yet
	if tm := chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-timer"]').textContent`); tm != "0:00" {
		t.Errorf("the clock runs before the first move: %s", tm)
	}
	chromeStep(t, ctx, "to the board", chromedp.Focus(cellSel(0)))
	for r := range 9 {
		board := readPlay(t, ctx)
		chromeStep(t, ctx, fmt.Sprintf("row %d", r+1), keys(rowKeys(board, p.Solution, r)))
		time.Sleep(300 * time.Millisecond)
	}
	chromeStep(t, ctx, "finished and recorded", chromedp.WaitVisible(tidSel("play-done")), chromedp.WaitVisible(tidSel("play-recorded")))
	shown := chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-done-time"]').textContent`)
	secs := chromeValue(t, ctx, "the recorded attempt", chromedp.Evaluate[int](
		`fetch("/api/me/attempts").then(r => r.json()).then(j => j.attempts[0].seconds)`, chromedp.EvalAwaitPromise))
	if want := fmt.Sprintf("%d:%02d", secs/60, secs%60); shown != want {
		t.Errorf("the board said %s at the finish, the attempt is recorded as %d s (%s)", shown, secs, want)
	}
	t.Logf("shown %s, recorded %d s", shown, secs)
}

// meetsGiveUp: Give up asks once; refused, nothing is recorded; accepted,
// the give-up is.
func meetsGiveUp(t *testing.T, ctx context.Context, base string) {
	p := submitAPI(t, base, bOther)
	chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("play-board")))
	waitPlay(t, ctx, "the board is ready", func(c []playCell) bool { return len(c) == 81 && c[0].Class != "" })
	chromeStep(t, ctx, "a move", chromedp.Focus(cellSel(0)), keys(rowKeys(readPlay(t, ctx), p.Solution, 0)[:2]))
	chromeJS[any](t, ctx, `window.__asked = []; window.__answer = false; window.confirm = (m) => { window.__asked.push(m); return window.__answer; }`)
	chromeStep(t, ctx, "Give up, then No", press("play-giveup"))
	if asked := chromeJS[[]string](t, ctx, `window.__asked`); len(asked) != 1 || !strings.Contains(asked[0], "Give up this puzzle?") {
		t.Errorf("Give up asked %q", asked)
	}
	if st := playStatus(t, ctx); strings.Contains(st, "Given up") {
		t.Errorf("refused, and yet: %q", st)
	}
	chromeJS[any](t, ctx, `window.__answer = true`)
	chromeStep(t, ctx, "Give up, then Yes", press("play-giveup"))
	if st := playStatus(t, ctx); !strings.Contains(st, "Given up") {
		t.Errorf("accepted, the status says %q", st)
	}
	if n := chromeJS[int](t, ctx, `window.__asked.length`); n != 2 {
		t.Errorf("asked %d times for two clicks", n)
	}
}

// meetsDelete: /me's delete form wants the word typed again; without it
// nothing is deleted and the page says what to type.
func meetsDelete(t *testing.T, ctx context.Context, base string) {
	chromeStep(t, ctx, "my page", chromedp.Navigate(base+"/me"), chromedp.WaitVisible(tidSel("me-delete-form")))
	if !chromeJS[bool](t, ctx, `document.querySelector('[data-testid="me-delete-confirm"]').required`) {
		t.Error("the confirmation box is not required")
	}
	chromeStep(t, ctx, "type the wrong word and delete",
		chromedp.SendKeys(tidSel("me-delete-confirm"), "nope"), chromedp.Click(tidSel("me-delete")), chromedp.WaitVisible(tidSel("me-delete-unconfirmed")))
	if chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="me-attempt"]').length`) == 0 {
		t.Error("the attempts are gone after an unconfirmed delete")
	}
}

// meetsSetter: a clash clears the analysis of the grid before it and says
// why; Inkala's puzzle shows "grading…", then its grade.
func meetsSetter(t *testing.T, ctx context.Context, base string) {
	const minimal17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	const inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
	field := func(name string) string {
		return chromeJS[string](t, ctx, `document.querySelector('[data-testid="analysis-`+name+`"]').textContent`)
	}
	status := func() string {
		return chromeJS[string](t, ctx, `document.querySelector('[data-testid="analysis-status"]').textContent`)
	}
	setText := func(s string) {
		chromeJS[any](t, ctx, `(() => { const t = document.querySelector('[data-testid="paste-box"]'); t.value = "`+s+`";
			t.dispatchEvent(new Event("input", {bubbles: true})); })()`)
	}
	poll := func(what, js string) {
		chromeValue(t, ctx, what, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second)))
	}
	chromeStep(t, ctx, "open the setter", chromedp.Navigate(base+"/setter"), chromedp.WaitVisible(tidSel("cell-0")))
	if chromeJS[string](t, ctx, `document.querySelector('[aria-current="page"]')?.textContent || ""`) != "" {
		t.Error("/setter highlights a header entry")
	}
	setText(minimal17)
	poll("the analysis", `document.querySelector('[data-testid="analysis-clues"]').textContent === "17"`)
	if got := field("solutions"); got != "exactly one" {
		t.Fatalf("solutions %q", got)
	}
	chromeStep(t, ctx, "a clashing 1 in r1c1", chromedp.SendKeys(tidSel("cell-0"), "1"))
	poll("the analysis cleared", `document.querySelector('[data-testid="analysis-status"]').textContent.includes("clashing")`)
	if vis := chromeJS[int](t, ctx, `document.querySelector('[data-analysis-fields]').getClientRects().length`); vis != 0 || field("clues") != "—" {
		t.Errorf("after a clash the analysis still shows (%d boxes, clues %q): %q", vis, field("clues"), status())
	}
	setText(inkala)
	poll("grading", `document.querySelector('[data-testid="analysis-grade"]').textContent.startsWith("grading")`)
	poll("the grade", `/^[0-9]+\.[0-9]/.test(document.querySelector('[data-testid="analysis-grade"]').textContent) ||
		document.querySelector('[data-testid="analysis-grade"]').textContent.startsWith("at least")`)
	for _, f := range []string{"grade_ep", "grade_ed", "techniques"} {
		if v := field(f); v == "—" || strings.HasPrefix(v, "grading") {
			t.Errorf("%s: %q after the grade came", f, v)
		}
	}
	t.Logf("Inkala's puzzle: grade %q, techniques %q", field("grade"), field("techniques"))
}
