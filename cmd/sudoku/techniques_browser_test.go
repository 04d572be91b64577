package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestTechniquesBrowser drives Chromium through the setter's page (the
// analysis follows the grid as a puzzle is typed cell by cell, and a given
// to spare shows at once), a practice hint (from a technique's page to
// a puzzle in practice mode: Hint says whether the next step on the board
// is the technique practised, and draws it), a practice position (pick the
// step's candidates, Check, the step drawn) and a chain step of the
// explanation drawn with its links, on a phone in dark mode too.
func TestTechniquesBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	db := filepath.Join(t.TempDir(), "sudoku.db")
	lines := puzzletest.Lines(t, puzzletest.Diabolical, 20)
	if _, stderr, err := runCmd(t, strings.Join(lines, "\n"), "import", "--db", db, "-"); err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	base := startBrowserServer(t, db)
	shots := screenshotDir(t)
	t.Run("setter", func(t *testing.T) { browserSetter(t, ctx, base, shots) })
	t.Run("practice hint", func(t *testing.T) { browserPractice(t, ctx, base, shots) })
	t.Run("practice position", func(t *testing.T) { browserPracticePosition(t, ctx, base, shots) })
	t.Run("chain drawn", func(t *testing.T) { browserChainDrawn(t, ctx, base, shots) })
}

// waitJS polls expression until it is true, for up to 10 s.
func waitJS(t *testing.T, ctx context.Context, what, expression string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !chromeJS[bool](t, ctx, expression) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not true after 10 s: %s", what, expression)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// field reads one field of the setter's analysis.
func field(name string) string {
	return fmt.Sprintf(`(document.querySelector('[data-testid="analysis-%s"]') || {}).textContent`, name)
}

// browserSetter types a minimal 17-clue puzzle into the setter's grid
// and watches the analysis follow; one more given makes it not minimal.
func browserSetter(t *testing.T, ctx context.Context, base, shots string) {
	const p17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	chromeStep(t, ctx, "open the setter", chromedp.Navigate(base+"/setter"), chromedp.WaitVisible(tidSel("cell-0")))
	for i := range 81 {
		if p17[i] == '0' {
			continue
		}
		chromeStep(t, ctx, fmt.Sprintf("type %c into cell %d", p17[i], i), chromedp.SendKeys(tidSel(fmt.Sprintf("cell-%d", i)), p17[i:i+1]))
	}
	waitJS(t, ctx, "the analysis of 17 clues", field("clues")+` === "17" && `+field("minimal")+` === "yes: every given is needed"`)
	if got := chromeJS[string](t, ctx, field("solutions")); got != "exactly one" {
		t.Errorf("solutions %q", got)
	}
	if got := chromeJS[string](t, ctx, field("grade")); got == "—" || got == "" {
		t.Errorf("no grade: %q", got)
	}
	// The solution's digit at r1c1 makes a given to spare there.
	res, err := http.Post(base+"/api/solve", "application/json", strings.NewReader(`{"puzzle": "`+p17+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var solved struct{ Solution string }
	err = json.NewDecoder(res.Body).Decode(&solved)
	res.Body.Close()
	if err != nil || len(solved.Solution) != 81 {
		t.Fatalf("solve: %v, %q", err, solved.Solution)
	}
	chromeStep(t, ctx, "type one more given", chromedp.SendKeys(tidSel("cell-0"), solved.Solution[0:1]))
	waitJS(t, ctx, "the analysis of 18 clues", field("clues")+` === "18" && `+field("redundant")+` === "r1c1"`)
	screenshot(t, ctx, shots, "setter")
}

// browserPractice opens a technique's page, follows its first practice
// link and asks for a hint: the hint is the technique practised, named
// and highlighted on the board.
func browserPractice(t *testing.T, ctx context.Context, base, shots string) {
	res, err := http.Get(base + "/api/techniques")
	if err != nil {
		t.Fatal(err)
	}
	var ts []struct {
		Name, Slug, Family string
		Hardest            int64
	}
	err = json.NewDecoder(res.Body).Decode(&ts)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var name, slug string
	for _, tc := range ts {
		if tc.Hardest > 0 && (slug == "" || tc.Family != "chains") {
			name, slug = tc.Name, tc.Slug
		}
	}
	if slug == "" {
		t.Fatal("no technique is the hardest of any archived puzzle")
	}
	chromeStep(t, ctx, "open "+slug, chromedp.Navigate(base+"/techniques/"+slug), chromedp.WaitVisible(tidSel("example-board")))
	chromeStep(t, ctx, "follow the first practice link", chromedp.Click(chromedp.CSS(`[data-testid="practice-puzzle"] a`)),
		chromedp.WaitVisible(tidSel("practice-banner")), chromedp.WaitVisible(tidSel("play-hint")))
	chromeStep(t, ctx, "ask for a hint", chromedp.Click(tidSel("play-hint")), chromedp.WaitVisible(tidSel("hint-box")))
	// From the givens the next step is rarely the technique practised:
	// the hint says so, or names it.
	waitJS(t, ctx, "the practice hint", `document.querySelector('[data-play="hint-title"]').textContent.startsWith("Practice: `+name+`") ||
		document.querySelector('[data-play="hint-text"]').textContent.startsWith("`+name+` is not the next step on your board")`)
	if n := chromeJS[int](t, ctx, `document.querySelectorAll(".play-board td.hint-cell").length`); n == 0 {
		t.Error("the practice hint highlights no cell")
	}
	if n := chromeJS[int](t, ctx, `document.querySelectorAll(".play svg.step-overlay circle, .play svg.step-overlay line, .play svg.step-overlay path").length`); n == 0 {
		t.Error("the hint draws nothing over the board")
	}
	screenshot(t, ctx, shots, "practice-hint")
}

// browserPracticePosition opens a technique's practice position, picks a
// wrong candidate (Check says not yet), then the step's candidates (Check
// says right, and the step is drawn: its eliminations crossed out).
func browserPracticePosition(t *testing.T, ctx context.Context, base, shots string) {
	slug := "pointing"
	chromeStep(t, ctx, "open the practice page", chromedp.Navigate(base+"/techniques/"+slug+"/practice"), chromedp.WaitVisible(tidSel("practice-board")))
	var pos struct {
		Candidates []int
		Step       struct {
			Eliminations []struct{ Cell, Digit int }
			Placements   []struct{ Cell, Digit int }
		}
	}
	raw := chromeJS[string](t, ctx, `document.querySelector('[data-testid="practice"]').dataset.position`)
	if err := json.Unmarshal([]byte(raw), &pos); err != nil || len(pos.Step.Eliminations) == 0 {
		t.Fatalf("position: %v, %s", err, raw)
	}
	mark := func(c, d int) chromedp.CSS {
		return chromedp.CSS(fmt.Sprintf(`[data-testid="practice-board"] td[data-cell="%d"] .marks > span:nth-child(%d)`, c, d))
	}
	// A candidate the step does not remove: some other digit of a cell.
	e := pos.Step.Eliminations[0]
	other := 0
	for d := 1; d <= 9; d++ {
		if pos.Candidates[e.Cell]&(1<<d) != 0 && d != e.Digit {
			other = d
			break
		}
	}
	chromeStep(t, ctx, "pick a wrong candidate and check", chromedp.Click(mark(e.Cell, other)), chromedp.Click(tidSel("practice-check")))
	waitJS(t, ctx, "not yet", `document.querySelector('[data-testid="practice-status"]').textContent.startsWith("Not yet")`)
	chromeStep(t, ctx, "clear", chromedp.Click(tidSel("practice-clear")))
	for _, x := range pos.Step.Eliminations {
		chromeStep(t, ctx, fmt.Sprintf("pick %d in cell %d", x.Digit, x.Cell), chromedp.Click(mark(x.Cell, x.Digit)))
	}
	chromeStep(t, ctx, "check", chromedp.Click(tidSel("practice-check")))
	waitJS(t, ctx, "right", `document.querySelector('[data-testid="practice-status"]').textContent.startsWith("Right")`)
	if n := chromeJS[int](t, ctx, `document.querySelectorAll('[data-practice-wrap] svg.step-overlay path.chain-cross').length`); n != len(pos.Step.Eliminations) {
		t.Errorf("%d eliminations crossed out, want %d", n, len(pos.Step.Eliminations))
	}
	if n := chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="practice-board"] [data-mark="struck"]').length`); n != len(pos.Step.Eliminations) {
		t.Errorf("%d candidates struck, want %d", n, len(pos.Step.Eliminations))
	}
	screenshot(t, ctx, shots, "practice-position")

	// Without JavaScript: the board, and Show me opens the step drawn.
	chromeStep(t, ctx, "without JavaScript", scripts(false), chromedp.Navigate(base+"/techniques/"+slug+"/practice"),
		chromedp.WaitVisible(tidSel("practice-board")), chromedp.Click(chromedp.CSS(`[data-testid="practice-reveal"] summary`)),
		chromedp.WaitVisible(tidSel("practice-answer")))
	if n := chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="practice-reveal"] path.chain-cross').length`); n == 0 {
		t.Error("without JavaScript, Show me draws no elimination")
	}
	screenshot(t, ctx, shots, "practice-position-nojs")
	chromeStep(t, ctx, "JavaScript again", scripts(true))
}

// browserChainDrawn opens the explanation of an archived puzzle at its
// first chain step: the overlay draws one line per link (strong solid,
// weak dashed), within the board, on a desktop and on a phone in dark mode.
func browserChainDrawn(t *testing.T, ctx context.Context, base, shots string) {
	id, k, links := firstChainStep(t, base)
	for _, view := range []struct {
		name   string
		w, h   int64
		scheme string
	}{{"desktop", 1280, 900, "light"}, {"phone", 390, 844, "dark"}} {
		chromeStep(t, ctx, "size "+view.name, chromedp.EmulateViewport(view.w, view.h), colorScheme(view.scheme))
		chromeStep(t, ctx, "open the explanation", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d?solution=1", base, id)),
			chromedp.WaitVisible(tidSel("explain-forward")))
		waitJS(t, ctx, "the explanation loads", `!document.querySelector('[data-testid="explain-forward"]').disabled`)
		for range k {
			chromeStep(t, ctx, "Next", chromedp.Click(tidSel("explain-forward")))
		}
		waitJS(t, ctx, "the chain step", fmt.Sprintf(`document.querySelectorAll('.explain svg.step-overlay line.chain-link').length === %d`, links))
		inside := chromeJS[bool](t, ctx, `(() => {
			const b = document.querySelector('[data-testid="explain-board"]').getBoundingClientRect();
			const s = document.querySelector('.explain svg.step-overlay').getBoundingClientRect();
			return s.width > 0 && s.left >= b.left - 1 && s.right <= b.right + 1 && s.top >= b.top - 1 && s.bottom <= b.bottom + 1;
		})()`)
		if !inside {
			t.Errorf("%s: the overlay is not over the board: %s", view.name, chromeJS[string](t, ctx, `JSON.stringify([document.querySelector('[data-testid="explain-board"]').getBoundingClientRect(), document.querySelector('.explain svg.step-overlay').getBoundingClientRect()])`))
		}
		dashed := chromeJS[bool](t, ctx, `[...document.querySelectorAll('.explain line.chain-weak')].every((l) => getComputedStyle(l).strokeDasharray !== "none") &&
			[...document.querySelectorAll('.explain line.chain-strong')].every((l) => getComputedStyle(l).strokeDasharray === "none")`)
		if !dashed {
			t.Errorf("%s: weak links are not dashed, or strong ones are", view.name)
		}
		screenshot(t, ctx, shots, "chain-"+view.name)
		saveShot(t, shots, "chain-"+view.name+"-board", chromeValue(t, ctx, "shoot the board", chromedp.Screenshot(chromedp.CSS(".explain .board-wrap"))))
	}
	chromeStep(t, ctx, "back to the desktop", chromedp.EmulateViewport(1280, 900), colorScheme("light"))
}

// firstChainStep finds an archived puzzle whose explanation has a step
// with links: its id, the step's index and its links' count.
func firstChainStep(t *testing.T, base string) (int64, int, int) {
	t.Helper()
	var page struct{ Puzzles []struct{ ID int64 } }
	getJSON(t, base+"/api/puzzles?limit=50", &page)
	for _, p := range page.Puzzles {
		var path struct {
			Steps []struct{ Links []json.RawMessage }
		}
		getJSON(t, fmt.Sprintf("%s/api/puzzles/%d/explain", base, p.ID), &path)
		for k, st := range path.Steps {
			if len(st.Links) > 0 {
				return p.ID, k, len(st.Links)
			}
		}
	}
	t.Fatal("no archived puzzle's explanation has a chain step")
	return 0, 0, 0
}

// getJSON decodes the JSON answer of a GET.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}
