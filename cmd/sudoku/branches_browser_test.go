package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// branchesJS reads the explanation's branch controls and drawing: the
// label, the listed branches, the branches the links are drawn for, and
// whether the shared conclusion is ringed.
const branchesJS = `(() => {
	const q = (id) => document.querySelector('[data-testid="' + id + '"]');
	const drawn = [...new Set([...document.querySelectorAll('.step-overlay line[data-branch]')].map((l) => l.dataset.branch))];
	return {shown: !q('explain-branches').hidden, label: q('explain-branch-label').textContent,
		listed: document.querySelectorAll('[data-testid="explain-branch-item"]').length,
		drawn: drawn.sort(), conclusion: !!document.querySelector('.step-overlay .chain-conclusion'),
		text: q('explain-branch-text').textContent};
})()`

type branchView struct {
	Shown      bool
	Label      string
	Listed     int
	Drawn      []string
	Conclusion bool
	Text       string
}

// explainBranches opens the explanation of p (a puzzle whose path has
// forcing chains that compare branches), goes to its first such step and
// steps through the branches (issue 46): listed, all drawn at first each
// with its branch, then one at a time by the buttons, the keyboard and the
// list, and all again by "All branches".
func explainBranches(t *testing.T, ctx context.Context, base string, p apiPuzzle, shots string) {
	chromeStep(t, ctx, "the explanation", chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d?solution=1", base, p.ID)),
		chromedp.WaitVisible(tidSel("explain-board")))
	chromeValue(t, ctx, "the first forcing chain", chromedp.Poll[bool](`(() => {
		const f = document.querySelector('[data-testid="explain-forward"]'), g = document.querySelector('[data-testid="explain-branches"]');
		for (let i = 0; i < 300 && g.hidden && !f.disabled; i++) f.click();
		return !g.hidden;
	})()`, chromedp.WithPollingTimeout(10*time.Second)))
	read := func() branchView { return chromeJS[branchView](t, ctx, branchesJS) }
	v := read()
	n := v.Listed
	t.Logf("%d branches: %q", n, v.Text)
	if !v.Shown || n < 2 || v.Label != "All branches" || len(v.Drawn) != n || !v.Conclusion {
		t.Fatalf("the chain's first view: %+v, want all its branches listed and drawn, the conclusion ringed", v)
	}
	screenshotViewport(t, ctx, shots, "46-explain-branches-all")
	want := func(how string, k int) {
		t.Helper()
		v := read()
		label := fmt.Sprintf("Branch %d of %d", k, n)
		if k == 0 {
			label = "All branches"
		}
		if v.Label != label || (k > 0 && (len(v.Drawn) != 1 || v.Drawn[0] != fmt.Sprint(k))) || !v.Conclusion {
			t.Errorf("%s: %+v, want %s drawn alone with the conclusion", how, v, label)
		}
	}
	chromeStep(t, ctx, "next branch", chromedp.Click(tidSel("explain-branch-next")))
	want("▼", 1)
	screenshotViewport(t, ctx, shots, "47-explain-branch-1")
	chromeStep(t, ctx, "↓", chromedp.Focus(tidSel("explain-board")), keys(kb.ArrowDown))
	want("↓", 2)
	chromeStep(t, ctx, "↑", keys(kb.ArrowUp))
	want("↑", 1)
	chromeStep(t, ctx, "the list's last", chromedp.Click(fmt.Sprintf(`[data-testid="explain-branch-item"][data-branch="%d"]`, n-1)))
	want("the list", n)
	chromeStep(t, ctx, "All branches", chromedp.Click(tidSel("explain-branch-all")))
	want("All branches", 0)
}

// practiceByPad picks a candidate on the practice board (open, on a phone)
// by touch as issue 46 asks: a tap on a cell only selects it (a pencil
// mark is some 13 px there), then a tap on the pad's digit picks it.
func practiceByPad(t *testing.T, ctx context.Context) {
	at := chromeJS[struct{ Cell, Digit int }](t, ctx, `(() => {
		const c = JSON.parse(document.querySelector('[data-testid="practice"]').dataset.position).candidates;
		const i = c.findIndex((m) => m > 0);
		let d = 1; while (!(c[i] & (1 << d))) d++;
		return {cell: i, digit: d};
	})()`)
	picked := func() int {
		return chromeJS[int](t, ctx, `document.querySelectorAll('[data-testid="practice-board"] [data-mark="picked"]').length`)
	}
	tapTouch(t, ctx, fmt.Sprintf(`[data-testid="practice-board"] td[data-cell="%d"]`, at.Cell))
	if n := picked(); n != 0 {
		t.Errorf("a tap on cell %d picked %d candidates, want it only selected", at.Cell, n)
	}
	pad := fmt.Sprintf(`[data-testid="practice-pad-%d"]`, at.Digit)
	if chromeJS[bool](t, ctx, `document.querySelector('`+pad+`').disabled`) {
		t.Fatalf("cell %d selected, the pad's %d is disabled", at.Cell, at.Digit)
	}
	tapTouch(t, ctx, pad)
	mark := fmt.Sprintf(`document.querySelector('[data-testid="practice-board"] td[data-cell="%d"] .marks > span:nth-child(%d)').dataset.mark`, at.Cell, at.Digit)
	if m := chromeJS[string](t, ctx, mark); m != "picked" || picked() != 1 {
		t.Errorf("after the pad's %d: the mark is %q, %d picked", at.Digit, m, picked())
	}
	if p := chromeJS[string](t, ctx, `document.querySelector('`+pad+`').getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("the pad's %d: aria-pressed %q", at.Digit, p)
	}
}
