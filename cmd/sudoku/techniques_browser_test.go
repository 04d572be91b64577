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
// to spare shows at once) and a practice hint (from a technique's page to
// a puzzle in practice mode: Hint names and highlights the technique
// practised).
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
	waitJS(t, ctx, "the practice hint", `document.querySelector('[data-play="hint-title"]').textContent.startsWith("Practice: `+name+`")`)
	if n := chromeJS[int](t, ctx, `document.querySelectorAll(".play-board td.hint-cell").length`); n == 0 {
		t.Error("the practice hint highlights no cell")
	}
	screenshot(t, ctx, shots, "practice-hint")
}
