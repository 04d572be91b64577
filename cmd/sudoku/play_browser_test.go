package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestPlayBrowser solves puzzles on their pages in Chromium, against a real
// `sudoku serve`: by keyboard on a desktop (pencil marks, undo and redo,
// Check with a wrong digit, a hint, a reload that restores the progress, the
// finished state and its time), then by tapping the number pad on a phone;
// it follows a share link and prints a puzzle. It logs the time from a
// keystroke to the next painted frame (no assertion: the machine is shared).
func TestPlayBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	shots := screenshotDir(t)
	easy := submitAPI(t, base, bEasy)
	t.Run("solve by keyboard", func(t *testing.T) { playKeyboard(t, ctx, base, easy, shots) })
	t.Run("share link", func(t *testing.T) { playShare(t, ctx, base, easy) })
	t.Run("the page reads puzzle text as the server does", func(t *testing.T) { playParse(t, ctx, base) })
	t.Run("print", func(t *testing.T) { playPrint(t, ctx, base, easy, shots) })
	t.Run("a hint step and the explanation, from stubbed endpoints", func(t *testing.T) {
		playStubbed(t, ctx, base, submitAPI(t, base, bExtreme), shots)
	})
	t.Run("a puzzle only opened is not welcomed back", func(t *testing.T) {
		playOpenedOnly(t, ctx, base, submitAPI(t, base, bHardish))
	})
	t.Run("solve on a phone with the number pad", func(t *testing.T) {
		playPhone(t, ctx, base, submitAPI(t, base, bOther), shots)
	})
}

// bHardish is a puzzle no other browser step opens (grade 7.x).
const bHardish = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

type apiPuzzle struct {
	ID       int64  `json:"id"`
	Puzzle   string `json:"puzzle"`
	Solution string `json:"solution"`
}

func submitAPI(t *testing.T, base, puzzle string) apiPuzzle {
	t.Helper()
	res, err := http.Post(base+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle":"`+puzzle+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p apiPuzzle
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil || p.ID == 0 || len(p.Solution) != 81 {
		t.Fatalf("submit: %v (%d)", err, res.StatusCode)
	}
	return p
}

// playCell is one cell of the solving board as the page shows it.
type playCell struct {
	V, Class, Marks string
}

func readPlay(t *testing.T, ctx context.Context) []playCell {
	t.Helper()
	raw := chromeJS[[][]string](t, ctx, `Array.from(document.querySelectorAll("#play-board td")).map(td => [
		(td.querySelector(".v") || td).textContent.trim(), td.className, (td.querySelector(".marks") || {dataset: {}}).dataset.marks || ""])`)
	cells := make([]playCell, len(raw))
	for i, r := range raw {
		cells[i] = playCell{r[0], r[1], r[2]}
	}
	return cells
}

func hasClass(c playCell, class string) bool { return slices.Contains(strings.Fields(c.Class), class) }

// boardText is the board as 81 characters, '.' for an empty cell.
func boardText(cells []playCell) string {
	var b strings.Builder
	for _, c := range cells {
		if c.V == "" {
			b.WriteByte('.')
		} else {
			b.WriteString(c.V)
		}
	}
	return b.String()
}

// waitPlay polls the board until ok, or fails after 10 s.
func waitPlay(t *testing.T, ctx context.Context, what string, ok func([]playCell) bool) []playCell {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cells := readPlay(t, ctx)
		if ok(cells) {
			return cells
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: board %s, status %q", what, boardText(cells), playStatus(t, ctx))
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func playStatus(t *testing.T, ctx context.Context) string {
	return chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-status"]').textContent`)
}

func cellSel(i int) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`#play-board td[data-cell="%d"]`, i))
}

// keys sends key presses to whatever has the focus.
func keys(s string, mods ...chromedp.Modifier) chromedp.Action[chromedp.Void] {
	if len(mods) == 0 {
		return chromedp.KeyEvent(s)
	}
	return chromedp.KeyEvent(s, chromedp.KeyModifiers(mods...))
}

// press focuses a button and presses Enter on it: the keyboard's click.
func press(testid string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Focus(tidSel(testid))(ctx, t); err != nil {
			return err
		}
		_, err := chromedp.KeyEvent(kb.Enter)(ctx, t)
		return err
	})
}

// rowKeys are the keys that fill row r from its first cell, typing the
// solution into the cells of board that are empty or wrong, then move to
// the start of the next row.
func rowKeys(board []playCell, solution string, r int) string {
	var b strings.Builder
	for c := range 9 {
		i := r*9 + c
		if board[i].V != solution[i:i+1] {
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

// measureKeys makes the page record, for every key press, the time from
// the event to the frame after it (a rAF, then a task: the frame is
// painted by then) and to the end of the key's handlers.
const measureKeys = `window.__paint = []; window.__sync = [];
if (!window.__measuring) {
	window.__measuring = true;
	document.addEventListener("keydown", (e) => {
		const t0 = e.timeStamp;
		requestAnimationFrame(() => setTimeout(() => window.__paint.push(performance.now() - t0), 0));
	}, true);
	window.addEventListener("keydown", (e) => window.__sync.push(performance.now() - e.timeStamp));
}
null`

// logLatency logs what measureKeys recorded. Keys typed in a burst (a
// whole row in one DevTools call) queue behind one frame, so only the
// handler times mean something for them (paint false).
func logLatency(t *testing.T, ctx context.Context, where string, paint bool) {
	t.Helper()
	time.Sleep(100 * time.Millisecond) // the last frame
	stats := func(name string) string {
		xs := chromeJS[[]float64](t, ctx, `window.`+name+`.slice().sort((a, b) => a - b)`)
		if len(xs) == 0 {
			return "no samples"
		}
		return fmt.Sprintf("%d keys: median %.1f ms, p95 %.1f ms, max %.1f ms", len(xs), xs[len(xs)/2], xs[len(xs)*95/100], xs[len(xs)-1])
	}
	if paint {
		t.Logf("%s: keystroke to painted frame: %s", where, stats("__paint"))
	}
	t.Logf("%s: keystroke to handled (model and DOM updated): %s", where, stats("__sync"))
}

// pacedLatency presses keys one at a time, 50 ms apart, so each has a frame
// to itself (typing in bursts queues keys behind one frame): moves that
// repaint the highlighted row, column and box, and pencil marks toggled on
// and off in the empty cell. It logs the time from each key to the frame
// after it, and how many keys the browser's Event Timing saw take longer
// than 16 ms from the key to the next paint (it reports no shorter ones).
func pacedLatency(t *testing.T, ctx context.Context, cell int) {
	t.Helper()
	chromeStep(t, ctx, "focus", chromedp.Focus(cellSel(cell)))
	chromeJS[any](t, ctx, measureKeys)
	chromeJS[any](t, ctx, `window.__slow = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "keydown") window.__slow.push(e.duration); }).observe({type: "event", durationThreshold: 16, buffered: false}); null`)
	seq := []string{kb.ArrowRight, kb.ArrowLeft, kb.ArrowDown, kb.ArrowUp, kb.ArrowRight, kb.ArrowLeft, "p"}
	for d := '1'; d <= '9'; d++ {
		seq = append(seq, string(d))
	}
	for d := '1'; d <= '9'; d++ {
		seq = append(seq, string(d))
	}
	seq = append(seq, "p")
	for range 2 {
		for _, k := range seq {
			chromeStep(t, ctx, "key", keys(k), chromedp.Sleep(50*time.Millisecond))
		}
	}
	logLatency(t, ctx, "one key at a time", true)
	slow := chromeJS[[]float64](t, ctx, `window.__slow`)
	t.Logf("one key at a time: Event Timing saw %d of %d keydowns take over 16 ms from key to paint %v", len(slow), 2*len(seq), slow)
}

var timeRE = regexp.MustCompile(`^\d+:\d\d$`)

func playKeyboard(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "open the puzzle",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)),
		chromedp.WaitVisible(tidSel("play-board")),
	)
	board := waitPlay(t, ctx, "the board is ready", func(c []playCell) bool { return len(c) == 81 && c[0].Class != "" })
	if got := boardText(board); got != p.Puzzle {
		t.Fatalf("the page opens on\n%s\nwant the givens\n%s", got, p.Puzzle)
	}
	if chromeJS[bool](t, ctx, `document.querySelector('[data-testid="analysis"]').open`) {
		t.Error("the analysis is open: the page spoils the puzzle")
	}
	first := strings.IndexByte(p.Puzzle, '.')
	playMarksUndoCheck(t, ctx, first, p.Solution[first:first+1], shots)
	playHint(t, ctx, first, shots)
	playRowsReload(t, ctx, p)
	playToTheEnd(t, ctx, p, shots)
}

// playMarksUndoCheck puts pencil marks into the empty cell first, then a
// wrong digit (not sol), undoes and redoes it; Check marks it wrong.
func playMarksUndoCheck(t *testing.T, ctx context.Context, first int, sol, shots string) {
	t.Helper()
	wrong := "9"
	if sol == "9" {
		wrong = "8"
	}

	chromeStep(t, ctx, "pencil marks: P, 1, 2, Shift+3, P",
		chromedp.Focus(cellSel(first)),
		keys("p12"), keys("3", chromedp.ModifierShift), keys("p"),
	)
	waitPlay(t, ctx, "marks 1 2 3", func(c []playCell) bool { return c[first].Marks == "1 2 3" && c[first].V == "" })

	chromeStep(t, ctx, "a wrong digit, undo, redo", keys(wrong))
	waitPlay(t, ctx, "the wrong digit", func(c []playCell) bool { return c[first].V == wrong })
	chromeStep(t, ctx, "undo", keys("z", chromedp.ModifierCtrl))
	waitPlay(t, ctx, "undone", func(c []playCell) bool { return c[first].V == "" && c[first].Marks == "1 2 3" })
	chromeStep(t, ctx, "redo", keys("y", chromedp.ModifierCtrl))
	waitPlay(t, ctx, "redone", func(c []playCell) bool { return c[first].V == wrong })

	chromeStep(t, ctx, "Check", press("play-check"))
	waitPlay(t, ctx, "the wrong cell marked", func(c []playCell) bool { return hasClass(c[first], "wrong") })
	if st := playStatus(t, ctx); !strings.Contains(st, "1 cell is wrong") {
		t.Errorf("status after Check: %q", st)
	}
	screenshot(t, ctx, shots, "20-play-check")
}

// playHint clears the wrong digit in cell first and asks for a hint: the
// server's logical step shows with its sentence, and Apply plays it.
func playHint(t *testing.T, ctx context.Context, first int, shots string) {
	t.Helper()
	chromeStep(t, ctx, "clear it, ask for a hint", chromedp.Focus(cellSel(first)), keys(kb.Backspace), press("play-hint"))
	// The server's logical step shows with its sentence, and Apply plays
	// it (the next step from the givens: a single somewhere).
	chromeStep(t, ctx, "the hint from the server", chromedp.WaitVisible(tidSel("hint-box")))
	hintText := chromeJS[string](t, ctx, `document.querySelector('[data-testid="hint-text"]').textContent`)
	t.Logf("hint from the server: %q", hintText)
	if hintText == "" || strings.Contains(hintText, "stub") {
		t.Errorf("hint text %q", hintText)
	}
	screenshot(t, ctx, shots, "21-play-hint-step")
	before := readPlay(t, ctx)
	chromeStep(t, ctx, "apply the hint", press("hint-apply"))
	waitPlay(t, ctx, "the hint applied", func(c []playCell) bool { return boardText(c) != boardText(before) })
}

// playRowsReload types rows 1 to 4 by keyboard, then reloads: the
// progress and the clock are restored.
func playRowsReload(t *testing.T, ctx context.Context, p apiPuzzle) {
	t.Helper()
	chromeStep(t, ctx, "back to the first cell", chromedp.Focus(cellSel(0)))
	chromeJS[any](t, ctx, measureKeys)
	for r := range 4 {
		board := readPlay(t, ctx)
		chromeStep(t, ctx, fmt.Sprintf("row %d", r+1), keys(rowKeys(board, p.Solution, r)))
	}
	half := waitPlay(t, ctx, "four rows solved", func(c []playCell) bool { return boardText(c)[:36] == p.Solution[:36] })
	logLatency(t, ctx, "desktop, rows 1-4 typed in bursts", false)
	time.Sleep(1100 * time.Millisecond) // a second on the clock
	chromeStep(t, ctx, "reload", chromedp.Reload())
	waitPlay(t, ctx, "progress restored", func(c []playCell) bool { return len(c) == 81 && boardText(c) == boardText(half) })
	if st := playStatus(t, ctx); !strings.Contains(st, "restored") {
		t.Errorf("status after reload: %q", st)
	}
	if tm := chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-timer"]').textContent`); tm == "0:00" {
		t.Errorf("the timer starts again at %s after a reload", tm)
	}
}

// playToTheEnd types rows 5 to 9, reads the finished board and its time,
// and shows the solution with the server's explanation.
func playToTheEnd(t *testing.T, ctx context.Context, p apiPuzzle, shots string) {
	t.Helper()
	pacedLatency(t, ctx, strings.IndexByte(p.Puzzle[36:], '.')+36)
	chromeStep(t, ctx, "on from row 5", chromedp.Focus(cellSel(36)))
	chromeJS[any](t, ctx, measureKeys)
	for r := 4; r < 9; r++ {
		board := readPlay(t, ctx)
		chromeStep(t, ctx, fmt.Sprintf("row %d", r+1), keys(rowKeys(board, p.Solution, r)))
	}
	chromeStep(t, ctx, "finished", chromedp.WaitVisible(tidSel("play-done")))
	logLatency(t, ctx, "desktop, rows 5-9 typed in bursts", false)
	done := chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-done-time"]').textContent`)
	if !timeRE.MatchString(done) {
		t.Errorf("finished in %q", done)
	}
	t.Logf("solved in %s", done)
	if got := boardText(readPlay(t, ctx)); got != p.Solution {
		t.Errorf("finished board\n%s\nwant\n%s", got, p.Solution)
	}
	screenshot(t, ctx, shots, "22-play-finished")
	chromeStep(t, ctx, "Show solution", chromedp.Click(tidSel("show-solution")), chromedp.WaitVisible(tidSel("board")), chromedp.WaitVisible(tidSel("explain")))
	// The server's logical path: a counter of its steps.
	chromeValue(t, ctx, "the explanation answers", chromedp.Poll[bool](`document.querySelector('[data-testid="explain-counter"]').textContent !== "" &&
		!document.querySelector('[data-testid="explain-counter"]').textContent.startsWith("Working out")`, chromedp.WithPollingTimeout(10*time.Second)))
	counter := chromeJS[string](t, ctx, `document.querySelector('[data-testid="explain-counter"]').textContent`)
	t.Logf("explanation: %q", counter)
	if strings.Contains(counter, "not available") {
		t.Errorf("explanation: %q", counter)
	}
}

func playShare(t *testing.T, ctx context.Context, base string, p apiPuzzle) {
	chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("share-link")))
	link := chromeValue(t, ctx, "share link", chromedp.AttributeValue(tidSel("share-link"), "value")).Value
	if link != base+"/p/"+p.Puzzle {
		t.Fatalf("share link %q", link)
	}
	chromeStep(t, ctx, "follow it", chromedp.Navigate(link), chromedp.WaitVisible(tidSel("play-board")))
	want := fmt.Sprintf("%s/puzzles/%d", base, p.ID)
	loc := chromeValue(t, ctx, "location", chromedp.Location())
	if !strings.HasPrefix(loc, want) {
		t.Errorf("the share link led to %s, want %s", loc, want)
	}
	if g := chromeValue(t, ctx, "givens", chromedp.AttributeValue(tidSel("play"), "data-givens")).Value; g != p.Puzzle {
		t.Errorf("givens %q", g)
	}
}

// playParse runs static/js/puzzletext.js in the page on inputs good and
// bad, and compares its verdicts with sudoku.Parse's.
func playParse(t *testing.T, ctx context.Context, base string) {
	inputs := []string{
		bEasy,
		strings.ReplaceAll(bEasy, ".", "0"),
		"53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79",
		"5 3 0 | 0 7 0 | 0 0 0\n------+-------+------\n" + strings.Repeat("0", 72),
		bEasy[:80],
		bEasy + "1",
		bEasy[:11] + "x" + bEasy[12:],
		"é" + bEasy,
		bEasy[:5] + "'" + bEasy[6:],
		bEasy[:5] + "\\" + bEasy[6:],
		bEasy[:5] + "\x01" + bEasy[6:],
		"",
		// SudokuWiki links (issue 34: the page said "'h' at position 1").
		"https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(bEasy, ".", "0"),
		"  SudokuWiki.org/sudoku.htm?n=1&bd=" + strings.ReplaceAll(bEasy, ".", "0") + "#solve",
		"https://www.sudokuwiki.org/sudoku.htm?bd=12x",
		"https://www.sudokuwiki.org/sudoku.htm",
	}
	chromeStep(t, ctx, "open a page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tidSel("cell-0")))
	js, _ := json.Marshal(inputs)
	got := chromeValue(t, ctx, "parse in the page", chromedp.Evaluate[[]string](
		`import("/static/js/puzzletext.js").then((m) => `+string(js)+`.map((s) => { const r = m.parse(s); return r.error ? "error: " + r.error : m.format(r.cells); }))`,
		chromedp.EvalAwaitPromise))
	for i, in := range inputs {
		want := ""
		if g, err := sudoku.Parse(in); err != nil {
			want = "error: " + err.Error()
		} else {
			want = g.String()
		}
		if i >= len(got) || got[i] != want {
			t.Errorf("input %q:\n page   %q\n server %q", in, got[i], want)
		}
	}
}

// playStubbed answers POST /api/hint and GET /api/puzzles/{id}/explain in
// the page (the server does not offer them yet) with docs/api.md's shapes,
// and checks that the board shows the hint's step and applies it, and that
// the explanation walks its steps with the buttons and the keyboard.
func playStubbed(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	c0 := strings.IndexByte(p.Puzzle, '.')
	c1 := strings.IndexByte(p.Puzzle[c0+1:], '.') + c0 + 1
	d0 := int(p.Solution[c0] - '0')
	d1 := int(p.Solution[c1]-'0')%9 + 1 // a digit that is not c1's
	hint := fmt.Sprintf(`{"technique": "Hidden single", "grade": 1.2, "cells": [%d], "placements": [{"cell": %d, "digit": %d}], "eliminations": [{"cell": %d, "digit": %d}], "text": "stub hint"}`, c0, c0, d0, c1, d1)
	explain := fmt.Sprintf(`{"grade": 2.6, "technique": "Pointing", "grade_floor": false, "steps": [
		{"technique": "Hidden single", "grade": 1.2, "cells": [%d], "placements": [{"cell": %d, "digit": %d}], "eliminations": [], "text": "first step"},
		{"technique": "Pointing", "grade": 2.6, "cells": [%d], "placements": [], "eliminations": [{"cell": %d, "digit": %d}], "text": "second step"}]}`,
		c0, c0, d0, c1, c1, d1)
	chromeStep(t, ctx, "open the puzzle", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("play-board")))
	chromeJS[any](t, ctx, `(() => {
		const real = window.fetch, hint = `+hint+`, explain = `+explain+`;
		const json = (v) => Promise.resolve(new Response(JSON.stringify(v), {status: 200, headers: {"Content-Type": "application/json"}}));
		window.fetch = (url, opts) => String(url) === "/api/hint" ? json({step: hint}) : String(url).endsWith("/explain") ? json(explain) : real(url, opts);
		return null;
	})()`)
	chromeStep(t, ctx, "ask for a hint", press("play-hint"), chromedp.WaitVisible(tidSel("hint-box")))
	cells := readPlay(t, ctx)
	if !hasClass(cells[c0], "hint-cell") || cells[c0].V != "" {
		t.Errorf("the hint's cell: %+v", cells[c0])
	}
	good := chromeJS[string](t, ctx, fmt.Sprintf(`document.querySelector('#play-board td[data-cell="%d"] .marks').dataset.good`, c0))
	struck := chromeJS[string](t, ctx, fmt.Sprintf(`document.querySelector('#play-board td[data-cell="%d"] .marks').dataset.struck`, c1))
	if good != fmt.Sprint(d0) || struck != fmt.Sprint(d1) {
		t.Errorf("the hint shows placement %q (want %d), elimination %q (want %d)", good, d0, struck, d1)
	}
	screenshot(t, ctx, shots, "28-play-hint-step")
	chromeStep(t, ctx, "apply it", press("hint-apply"))
	waitPlay(t, ctx, "the hint applied", func(c []playCell) bool { return c[c0].V == fmt.Sprint(d0) })

	counter := func() string {
		return chromeJS[string](t, ctx, `document.querySelector('[data-testid="explain-counter"]').textContent`)
	}
	chromeStep(t, ctx, "Show solution", chromedp.Click(tidSel("show-solution")), chromedp.WaitVisible(tidSel("explain-board")))
	if got := counter(); got != "Step 1 of 2 · Hidden single (1.2)" {
		t.Errorf("explanation starts at %q", got)
	}
	chromeStep(t, ctx, "Next", chromedp.Click(tidSel("explain-forward")))
	if got := counter(); got != "Step 2 of 2 · Pointing (2.6)" {
		t.Errorf("after Next: %q", got)
	}
	ex := func(c int, attr string) string {
		return chromeJS[string](t, ctx, fmt.Sprintf(`(() => { const td = document.querySelector('[data-testid="explain-board"] td[data-cell="%d"]'); return %s; })()`, c, attr))
	}
	if v := ex(c0, `td.querySelector(".v").textContent`); v != fmt.Sprint(d0) {
		t.Errorf("after step 1 the explanation's board shows %q in cell %d, want %d", v, c0, d0)
	}
	if v := ex(c1, `td.querySelector(".marks").dataset.struck`); v != fmt.Sprint(d1) {
		t.Errorf("step 2 strikes %q in cell %d, want %d", v, c1, d1)
	}
	screenshot(t, ctx, shots, "29-explain-step")
	chromeStep(t, ctx, "the keyboard: →, then Home", chromedp.Focus(tidSel("explain-board")), keys(kb.ArrowRight))
	if got := counter(); got != "Solved: 2 steps" {
		t.Errorf("after →: %q", got)
	}
	chromeStep(t, ctx, "Home", keys(kb.Home))
	if got := counter(); !strings.HasPrefix(got, "Step 1 of 2") {
		t.Errorf("after Home: %q", got)
	}
	// Next, clicked, has the focus; End disables it. The keys once stopped
	// there: nothing had the focus any more.
	chromeStep(t, ctx, "Next, then End", chromedp.Click(tidSel("explain-forward")), keys(kb.End))
	if got := counter(); got != "Solved: 2 steps" {
		t.Errorf("after End: %q", got)
	}
	chromeStep(t, ctx, "Home after End", keys(kb.Home))
	if got := counter(); !strings.HasPrefix(got, "Step 1 of 2") {
		t.Errorf("Home after End: %q, want step 1: the keys stopped after End", got)
	}
	chromeStep(t, ctx, "→ after Home", keys(kb.ArrowRight))
	if got := counter(); !strings.HasPrefix(got, "Step 2 of 2") {
		t.Errorf("→ after Home: %q, want step 2", got)
	}
	chromeStep(t, ctx, "Back at step 2, then Home, then End", chromedp.Click(tidSel("explain-back")), keys(kb.Home), keys(kb.End))
	if got := counter(); got != "Solved: 2 steps" {
		t.Errorf("End after Home (Back disabled): %q", got)
	}
}

// playOpenedOnly: a puzzle that was only opened is not "welcomed back" with
// "0:00 so far" on the next visit; one with a digit entered is.
func playOpenedOnly(t *testing.T, ctx context.Context, base string, p apiPuzzle) {
	url := fmt.Sprintf("%s/puzzles/%d", base, p.ID)
	for i := range 2 { // the second visit finds what the first left
		chromeStep(t, ctx, fmt.Sprintf("open the puzzle, visit %d", i+1), chromedp.Navigate(url), chromedp.WaitVisible(tidSel("play-board")))
	}
	if st := playStatus(t, ctx); strings.Contains(st, "Welcome back") {
		t.Errorf("a puzzle only opened before says %q", st)
	}
	cell := strings.IndexByte(p.Puzzle, '.')
	chromeStep(t, ctx, "enter a digit", chromedp.Focus(cellSel(cell)), keys(p.Solution[cell:cell+1]))
	waitPlay(t, ctx, "the digit entered", func(c []playCell) bool { return c[cell].V == p.Solution[cell:cell+1] })
	chromeStep(t, ctx, "come back", chromedp.Navigate(url), chromedp.WaitVisible(tidSel("play-board")))
	if st := playStatus(t, ctx); !strings.Contains(st, "Welcome back") {
		t.Errorf("after a digit was entered, coming back says %q, want a welcome back", st)
	}
}

// media emulates a CSS media type ("print", or "" for the screen).
func media(m string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
		return err
	})
}

func playPrint(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "print the puzzle",
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)),
		chromedp.WaitVisible(tidSel("play-board")),
		media("print"),
	)
	defer chromeStep(t, ctx, "screen again", media(""))
	shown := chromeJS[map[string]bool](t, ctx, `Object.fromEntries([
		["header", ".site-header"], ["play", "#play"], ["measures", "[data-testid=measures]"],
		["analysis", "#analysis"], ["card", ".print-only .print-card"]].map(([k, s]) => [k, document.querySelector(s).getClientRects().length > 0]))`)
	for _, k := range []string{"header", "play", "measures", "analysis"} {
		if shown[k] {
			t.Errorf("printing shows the %s", k)
		}
	}
	if !shown["card"] {
		t.Error("printing does not show the puzzle")
	}
	text := chromeJS[string](t, ctx, `document.querySelector(".print-only").innerText`)
	for _, want := range []string{fmt.Sprintf("Puzzle #%d", p.ID), "Easy", "/p/" + p.Puzzle} {
		if !strings.Contains(text, want) {
			t.Errorf("the print-out lacks %q:\n%s", want, text)
		}
	}
	screenshot(t, ctx, shots, "23-print-puzzle")
	chromeStep(t, ctx, "print 4 per page from the history", chromedp.Navigate(base+"/puzzles"), chromedp.Click(tidSel("print-link")),
		chromedp.WaitVisible(tidSel("print-card")))
	if n := chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="print-card"]').length`); n < 1 {
		t.Errorf("%d cards on the print sheet", n)
	}
	screenshot(t, ctx, shots, "24-print-sheet")
}

func playPhone(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("numpad")))
	defer chromeStep(t, ctx, "desktop again", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900))
	if chromeJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`) {
		t.Error("the puzzle page scrolls sideways on a phone")
	}
	var empty []int
	for i := range 81 {
		if p.Puzzle[i] == '.' {
			empty = append(empty, i)
		}
	}
	tap := func(what string, sels ...chromedp.CSS) {
		t.Helper()
		var as []chromedp.Action[chromedp.Void]
		for _, s := range sels {
			as = append(as, chromedp.Click(s))
		}
		chromeStep(t, ctx, what, as...)
	}
	pad := func(d byte) chromedp.CSS { return tidSel("pad-" + string(d)) }
	a, b := empty[0], empty[1]
	tap("pencil marks with the pad", cellSel(a), tidSel("play-pencil"), pad('4'), pad('5'), tidSel("play-pencil"))
	waitPlay(t, ctx, "marks 4 5", func(c []playCell) bool { return c[a].Marks == "4 5" })
	wrong := byte('1')
	if p.Solution[b] == '1' {
		wrong = '2'
	}
	tap("a wrong digit, undo, redo", cellSel(b), pad(wrong), tidSel("play-undo"))
	waitPlay(t, ctx, "undone", func(c []playCell) bool { return c[b].V == "" })
	tap("redo", tidSel("play-redo"))
	waitPlay(t, ctx, "redone", func(c []playCell) bool { return c[b].V == string(wrong) })
	tap("Check", tidSel("play-check"))
	waitPlay(t, ctx, "marked wrong", func(c []playCell) bool { return hasClass(c[b], "wrong") })
	screenshotViewport(t, ctx, shots, "25-phone-play-check")
	tap("erase it, hint", cellSel(b), tidSel("pad-erase"), tidSel("play-hint"))
	waitPlay(t, ctx, "a hint", func(c []playCell) bool {
		return c[b].V != "" || chromeJS[bool](t, ctx, `!document.querySelector('[data-testid="hint-box"]').hidden`)
	})
	if chromeJS[bool](t, ctx, `!document.querySelector('[data-testid="hint-box"]').hidden`) {
		tap("apply the hint", tidSel("hint-apply"))
	}
	// Half the empty cells, reload, the rest.
	chromeJS[any](t, ctx, measureKeys) // taps are no key presses: this only resets the arrays
	fill := func(cells []int) {
		t.Helper()
		board := readPlay(t, ctx)
		var sels []chromedp.CSS
		for _, i := range cells {
			if board[i].V != p.Solution[i:i+1] {
				sels = append(sels, cellSel(i), pad(p.Solution[i]))
			}
		}
		tap(fmt.Sprintf("%d cells", len(sels)/2), sels...)
	}
	fill(empty[:len(empty)/2])
	half := boardText(readPlay(t, ctx))
	chromeStep(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(tidSel("numpad")))
	waitPlay(t, ctx, "progress restored", func(c []playCell) bool { return boardText(c) == half })
	screenshotViewport(t, ctx, shots, "26-phone-play-restored")
	start := time.Now()
	fill(empty[len(empty)/2:])
	chromeStep(t, ctx, "finished", chromedp.WaitVisible(tidSel("play-done")))
	per := time.Since(start) / time.Duration(len(empty)-len(empty)/2)
	t.Logf("phone: %v per cell (tap the cell, tap the digit, through the DevTools protocol)", per.Round(time.Millisecond))
	if done := chromeJS[string](t, ctx, `document.querySelector('[data-testid="play-done-time"]').textContent`); !timeRE.MatchString(done) {
		t.Errorf("finished in %q", done)
	}
	screenshotViewport(t, ctx, shots, "27-phone-play-finished")
}
