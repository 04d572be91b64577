package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestBoardBrowser holds issue 46's board: on a 390×844 phone and a
// 1280×800 desktop the board is most of the page (≥ 360 and ≥ 600 px)
// with the mode switch, the number pad, Check and Hint on screen; a puzzle
// is played to the end on the phone by touch events alone (a drag selects
// cells, a long press enters a corner mark, the modes by tap) and on the
// desktop by keyboard with corner marks, centre marks and colours (z/x/c/v,
// Shift and Ctrl held, Shift+arrows), kept across a reload with their undo
// history, and cells selected by mouse (Ctrl-click, Shift-click, a drag); Next, Easier and Harder are in view when a solve ends; the
// explanation's and practice's boards are as large as the playing board;
// a forcing chain's explanation steps through its branches.
func TestBoardBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	db := filepath.Join(t.TempDir(), "sudoku.db")
	// A few graded puzzles, for a practice position.
	if _, stderr, err := runCmd(t, strings.Join(puzzletest.Lines(t, puzzletest.Diabolical, 4), "\n"), "import", "--db", db, "-"); err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	base := startBrowserServer(t, db)
	shots := screenshotDir(t)
	t.Run("phone, by touch", func(t *testing.T) { boardTouch(t, ctx, base, submitAPI(t, base, bOther), shots) })
	easy := submitAPI(t, base, bEasy)
	t.Run("desktop, by keyboard", func(t *testing.T) { boardKeyboard(t, ctx, base, easy, shots) })
	t.Run("explanation and practice boards", func(t *testing.T) { boardsAsLarge(t, ctx, base, easy, shots) })
	t.Run("a forcing chain branch by branch", func(t *testing.T) {
		explainBranches(t, ctx, base, submitAPI(t, base, puzzletest.Lines(t, puzzletest.Top1465, 1)[0]), shots)
	})
}

// boardsAsLarge measures the explanation's board (first behind "Show
// solution") and a practice position's board on the phone and the
// desktop: as large as the playing board.
func boardsAsLarge(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	defer chromeStep(t, ctx, "the usual window", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900))
	for _, v := range []struct {
		name          string
		width, height int64
		min           float64
		opts          []chromedp.EmulateViewportOption
	}{
		{"390×844", 390, 844, 360, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}},
		{"1280×800", 1280, 800, 600, nil},
	} {
		chromeStep(t, ctx, "the explanation at "+v.name, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, v.opts...),
			chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d?solution=1", base, p.ID)), chromedp.WaitVisible(tidSel("explain-board")),
			chromedp.ScrollIntoView(tidSel("explain-board")))
		w := chromeJS[float64](t, ctx, `document.querySelector('[data-testid="explain-board"]').getBoundingClientRect().width`)
		t.Logf("the explanation's board at %s: %.0f px", v.name, w)
		if w < v.min {
			t.Errorf("the explanation's board is %.0f px wide at %s, want ≥ %.0f", w, v.name, v.min)
		}
		if px := chromeJS[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector('[data-testid="explain-board"] .marks')).fontSize)`); px < 11 {
			t.Errorf("the explanation's candidates are %.1f px at %s, want ≥ 11", px, v.name)
		}
		screenshotViewport(t, ctx, shots, "44-board-explain-"+v.name)
		chromeStep(t, ctx, "a practice position at "+v.name, chromedp.Navigate(base+"/techniques/pointing/practice"), chromedp.WaitVisible(tidSel("practice-board")))
		checkBoardFits(t, ctx, "practice at "+v.name, tidCSS("practice-board"), v.min)
		if v.width == 390 {
			practiceByPad(t, ctx)
		}
		screenshotViewport(t, ctx, shots, "45-board-practice-"+v.name)
	}
}

// boardFitJS measures the board (the selector's table) and lists the
// controls (by test id) not wholly inside the window.
const boardFitJS = `((sel, ids) => {
	const b = document.querySelector(sel).getBoundingClientRect();
	const out = ids.filter((id) => {
		const el = document.querySelector('[data-testid="' + id + '"]');
		if (!el) return true;
		const r = el.getBoundingClientRect();
		return !r.width || r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
	});
	return {width: b.width, height: b.height, top: b.top, out};
})`

type boardFit struct {
	Width, Height, Top float64
	Out                []string
}

// checkBoardFits fails unless the board sel is min px wide and the
// controls ids are on screen, at the top of the page.
func checkBoardFits(t *testing.T, ctx context.Context, where, sel string, minWidth float64, ids ...string) {
	t.Helper()
	chromeJS[any](t, ctx, `window.scrollTo(0, 0), 0`)
	q := fmt.Sprintf(`%s(%q, [%s])`, boardFitJS, sel, quoteAll(ids))
	f := chromeJS[boardFit](t, ctx, q)
	t.Logf("%s: the board is %.0f×%.0f px, its top %.0f px down", where, f.Width, f.Height, f.Top)
	if f.Width < minWidth {
		t.Errorf("%s: the board is %.0f px wide, want ≥ %.0f", where, f.Width, minWidth)
	}
	if len(f.Out) > 0 {
		t.Errorf("%s: not on screen without scrolling: %s", where, strings.Join(f.Out, ", "))
	}
}

func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ",")
}

// playControls are what must be on screen while playing.
var playControls = []string{"play-board", "mode-switch", "numpad", "play-check", "play-hint"}

// endControls are what must be in view when a solve ends.
var endControls = []string{"play-next", "play-next-easier", "play-next-harder"}

// touchAt sends one touch event of kind at (x, y), or with no point for
// an end.
func touchAt(kind input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: kind, TouchPoints: []*input.TouchPoint{}}
		if kind != input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{{X: x, Y: y}}
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, p)
		return err
	})
}

// centreOf is the middle of the element sel on screen, scrolled into view.
func centreOf(t *testing.T, ctx context.Context, sel string) (float64, float64) {
	t.Helper()
	xy := chromeJS[[]float64](t, ctx, fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.scrollIntoView({block: "nearest"});
		const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	return xy[0], xy[1]
}

// tapTouch taps each element by touch events: a start and an end.
func tapTouch(t *testing.T, ctx context.Context, sels ...string) {
	t.Helper()
	for _, s := range sels {
		x, y := centreOf(t, ctx, s)
		chromeStep(t, ctx, "tap "+s, touchAt(input.DispatchTouchEventTypeTouchStart, x, y), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
	}
}

func cellCSS(i int) string    { return fmt.Sprintf(`#play-board td[data-cell="%d"]`, i) }
func tidCSS(id string) string { return `[data-testid="` + id + `"]` }

// cellMarks reads a cell's corner marks, centre marks and colour.
func cellMarks(t *testing.T, ctx context.Context, i int) [3]string {
	t.Helper()
	return chromeJS[[3]string](t, ctx, fmt.Sprintf(`(() => { const td = document.querySelector(%q);
		return [td.querySelector(".marks").dataset.marks || "", td.querySelector(".cm").textContent, td.dataset.colour || ""]; })()`, cellCSS(i)))
}

func waitMarks(t *testing.T, ctx context.Context, what string, i int, want [3]string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := cellMarks(t, ctx, i)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: cell %d shows corner %q, centre %q, colour %q; want %q; status %q", what, i, got[0], got[1], got[2], want, playStatus(t, ctx))
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func emptyCells(puzzle string) []int {
	var empty []int
	for i := range 81 {
		if puzzle[i] == '.' {
			empty = append(empty, i)
		}
	}
	return empty
}

// boardTouch plays p to the end at 390×844 by touch events.
func boardTouch(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "phone", chromedp.EmulateReset(), chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("numpad")))
	defer chromeStep(t, ctx, "desktop again", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900))
	checkBoardFits(t, ctx, "puzzle page at 390×844", "#play-board", 360, playControls...)
	screenshotViewport(t, ctx, shots, "39-board-phone-top")
	if ta := chromeJS[string](t, ctx, `getComputedStyle(document.querySelector("#play-board")).touchAction`); ta != "none" {
		t.Errorf("the board's touch-action is %q: a double tap would zoom", ta)
	}
	empty := emptyCells(p.Puzzle)
	a, b := empty[0], empty[1]
	// A drag from a to b selects both (and the cells between); a long press
	// on 7 puts a corner mark 7 into the empty ones.
	ax, ay := centreOf(t, ctx, cellCSS(a))
	bx, by := centreOf(t, ctx, cellCSS(b))
	chromeStep(t, ctx, "drag from a to b", touchAt(input.DispatchTouchEventTypeTouchStart, ax, ay), touchAt(input.DispatchTouchEventTypeTouchMove, (ax+bx)/2, (ay+by)/2),
		touchAt(input.DispatchTouchEventTypeTouchMove, bx, by), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
	if n := chromeJS[int](t, ctx, `document.querySelectorAll("#play-board td.selected").length`); n < 2 {
		t.Fatalf("a drag selected %d cells; status %q", n, playStatus(t, ctx))
	}
	px, py := centreOf(t, ctx, tidCSS("pad-7"))
	chromeStep(t, ctx, "long press 7", touchAt(input.DispatchTouchEventTypeTouchStart, px, py), chromedp.Sleep(700*time.Millisecond), touchAt(input.DispatchTouchEventTypeTouchEnd, 0, 0))
	waitMarks(t, ctx, "a long press", a, [3]string{"7", "", ""})
	waitMarks(t, ctx, "a long press, the other cell", b, [3]string{"7", "", ""})
	tapTouch(t, ctx, tidCSS("mode-centre"), tidCSS("pad-3"), tidCSS("pad-5"), tidCSS("mode-colour"), tidCSS("pad-4"))
	waitMarks(t, ctx, "centre marks and a colour", b, [3]string{"7", "35", "4"})
	if scale := chromeJS[float64](t, ctx, `visualViewport.scale`); scale != 1 {
		t.Errorf("the page zoomed to %.2f", scale)
	}
	screenshotViewport(t, ctx, shots, "39-board-phone-marks")
	tapTouch(t, ctx, tidCSS("mode-normal"))
	for _, i := range empty {
		tapTouch(t, ctx, cellCSS(i), tidCSS("pad-"+p.Solution[i:i+1]))
		if v := readPlay(t, ctx)[i].V; v != p.Solution[i:i+1] {
			t.Logf("cell %d shows %q after its taps; status %q", i, v, playStatus(t, ctx))
		}
	}
	waitPlay(t, ctx, "solved by touch", func(c []playCell) bool { return boardText(c) == p.Solution })
	if chromeJS[bool](t, ctx, `document.querySelector('[data-testid="play-done"]').hidden`) {
		t.Fatalf("solved, but the end of the solve is hidden; status %q", playStatus(t, ctx))
	}
	if at := chromeJS[string](t, ctx, `location.pathname`); at != fmt.Sprintf("/puzzles/%d", p.ID) {
		t.Fatalf("the last tap went on to %s: a click after the touch landed on Next", at)
	}
	if got := boardText(readPlay(t, ctx)); got != p.Solution {
		t.Errorf("finished board\n%s\nwant\n%s", got, p.Solution)
	}
	if c := cellMarks(t, ctx, b)[2]; c != "4" {
		t.Errorf("the colour of cell %d is %q after the solve, want 4", b, c)
	}
	endInView(t, ctx, "the end of a solve at 390×844")
	screenshotViewport(t, ctx, shots, "40-board-phone-finished")
}

// endInView fails unless Next, Easier and Harder are on screen as the
// page stands.
func endInView(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	q := fmt.Sprintf(`[%s].filter((id) => { const r = document.querySelector('[data-testid="' + id + '"]').getBoundingClientRect();
		return !r.width || r.top < 0 || r.bottom > innerHeight + 0.5; })`, quoteAll(endControls))
	if out := chromeJS[[]string](t, ctx, q); len(out) > 0 {
		t.Errorf("%s: not in view: %s", where, strings.Join(out, ", "))
	}
}

// boardKeyboard plays p to the end at 1280×800 by keyboard, with corner
// marks, centre marks and colours in three cells selected at once, a
// reload that keeps them and their undo, and the explanation's board.
func boardKeyboard(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, p.ID)), chromedp.WaitVisible(tidSel("numpad")))
	defer chromeStep(t, ctx, "the usual window", chromedp.EmulateViewport(1280, 900))
	checkBoardFits(t, ctx, "puzzle page at 1280×800", "#play-board", 600, playControls...)
	screenshotViewport(t, ctx, shots, "41-board-desktop-top")
	empty := emptyCells(p.Puzzle)
	a := empty[0]
	var sel []int // the cells Shift+Right twice selects: a and the two after it in its row
	for i := a; i <= a+2 && i/9 == a/9; i++ {
		sel = append(sel, i)
	}
	chromeStep(t, ctx, "select three cells, mark and colour them",
		chromedp.Focus(cellSel(a)),
		keys(kb.ArrowRight+kb.ArrowRight, chromedp.ModifierShift),
		keys("x1"),                        // corner mode, 1
		keys("2", chromedp.ModifierCtrl),  // centre 2, Ctrl held
		keys("c6"),                        // centre mode, 6
		keys("v3"),                        // colour mode, colour 3
		keys("8", chromedp.ModifierShift), // corner 8, Shift held
		keys(" "),                         // Space: colour → normal
	)
	if n := chromeJS[int](t, ctx, `document.querySelectorAll("#play-board td.selected").length`); n != len(sel) {
		t.Errorf("Shift+Right twice selected %d cells, want %d", n, len(sel))
	}
	for _, i := range sel {
		want := [3]string{"1 8", "26", "3"}
		if p.Puzzle[i] != '.' {
			want = [3]string{"", "", "3"} // a given takes a colour, no marks
		}
		waitMarks(t, ctx, "marks and colours by keyboard", i, want)
	}
	if m := chromeJS[string](t, ctx, `document.querySelector('[data-mode][aria-pressed="true"]').dataset.mode`); m != "normal" {
		t.Errorf("Space from colour mode gave %q, want normal", m)
	}
	screenshotViewport(t, ctx, shots, "42-board-desktop-marks")
	chromeStep(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(tidSel("numpad")))
	waitMarks(t, ctx, "restored after a reload", a, [3]string{"1 8", "26", "3"})
	chromeStep(t, ctx, "undo after the reload", chromedp.Focus(cellSel(a)), keys("z", chromedp.ModifierCtrl))
	waitMarks(t, ctx, "the last mark undone", a, [3]string{"1", "26", "3"})
	chromeStep(t, ctx, "redo", keys("y", chromedp.ModifierCtrl))
	waitMarks(t, ctx, "redone", a, [3]string{"1 8", "26", "3"})

	mouseSelect(t, ctx, empty[3], empty[4], empty[5])

	chromeStep(t, ctx, "from the first cell, normal digits", chromedp.Focus(cellSel(0)), keys("z"))
	for r := range 9 {
		board := readPlay(t, ctx)
		chromeStep(t, ctx, fmt.Sprintf("row %d", r+1), keys(rowKeys(board, p.Solution, r)))
	}
	chromeStep(t, ctx, "finished", chromedp.WaitVisible(tidSel("play-done")))
	if got := boardText(readPlay(t, ctx)); got != p.Solution {
		t.Errorf("finished board\n%s\nwant\n%s", got, p.Solution)
	}
	endInView(t, ctx, "the end of a solve at 1280×800")
	screenshotViewport(t, ctx, shots, "43-board-desktop-finished")

}

// mouseSelect selects by mouse: a click on a, a Ctrl-click on b and a
// Shift-click on c select the three; a drag from a to c selects them and
// the cells between.
func mouseSelect(t *testing.T, ctx context.Context, a, b, c int) {
	t.Helper()
	selected := func() int {
		return chromeJS[int](t, ctx, `document.querySelectorAll("#play-board td.selected").length`)
	}
	ax, ay := centreOf(t, ctx, cellCSS(a))
	bx, by := centreOf(t, ctx, cellCSS(b))
	cx, cy := centreOf(t, ctx, cellCSS(c))
	chromeStep(t, ctx, "click, Ctrl-click, Shift-click", chromedp.MouseClickXY(ax, ay),
		chromedp.MouseClickXY(bx, by, chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
		chromedp.MouseClickXY(cx, cy, chromedp.ButtonModifiers(chromedp.ModifierShift)))
	if n := selected(); n != 3 {
		t.Errorf("a click, a Ctrl-click and a Shift-click selected %d cells, want 3", n)
	}
	chromeStep(t, ctx, "drag", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, ax, ay, chromedp.ButtonType(input.MouseButtonLeft)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (ax+cx)/2, (ay+cy)/2, chromedp.ButtonType(input.MouseButtonLeft)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, cx, cy, chromedp.ButtonType(input.MouseButtonLeft)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, cx, cy, chromedp.ButtonType(input.MouseButtonLeft)))
	if n := selected(); n < 2 {
		t.Errorf("a drag selected %d cells", n)
	}
	chromeStep(t, ctx, "Escape", keys(kb.Escape))
	if n := selected(); n != 1 {
		t.Errorf("Escape left %d cells selected, want 1", n)
	}
}
