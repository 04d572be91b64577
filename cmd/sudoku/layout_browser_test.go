package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// layoutView is a screen the layout test sizes the pages to.
type layoutView struct {
	name          string
	width, height int64
	phone         bool
}

// layoutViews: a desktop at 1280 px, the width a history column was cut
// at, and a phone at 390 px, where /stats once scrolled sideways.
var layoutViews = []layoutView{
	{name: "desktop", width: 1280, height: 900},
	{name: "phone", width: 390, height: 844, phone: true},
}

// clippedJS lists the elements that hide part of their content sideways:
// a box whose overflow is not visible and whose content is wider than it.
// On a desktop nothing may be cut; on a phone a box may scroll on its own
// (a wide table in its scroller), only the page itself may not.
const clippedJS = `Array.from(document.querySelectorAll("body *")).filter(el => {
	const s = getComputedStyle(el);
	// Text fields scroll their own text, and visually hidden text (1 px)
	// is meant for screen readers.
	if (s.display === "none" || s.overflowX === "visible" || el.clientWidth <= 1 || el.matches("input, textarea, select")) return false;
	return el.scrollWidth > el.clientWidth + 1;
}).map(el => el.tagName.toLowerCase() + (el.dataset.testid ? "[data-testid=" + el.dataset.testid + "]" : "") +
	(el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
	" (" + el.scrollWidth + " px of content in " + el.clientWidth + ")")`

// widerJS names the elements that reach past the right edge of the window
// while none of their children does: where a sideways scroll comes from.
const widerJS = `(() => {
	const clipped = (e) => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true; return false; };
	const past = (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(e);
	return Array.from(document.querySelectorAll("body *")).filter(el => past(el) && !Array.from(el.children).some(past)).slice(0, 5).map(el =>
		el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
		" (right edge at " + Math.round(el.getBoundingClientRect().right) + " px)");
})()`

// splitLabelsJS names the navigation links and buttons whose label takes
// more than one line.
const splitLabelsJS = `Array.from(document.querySelectorAll(".site-nav a, button, .button")).filter(el => {
	const r = document.createRange();
	r.selectNodeContents(el);
	// Boxes that overlap in height are one line (a symbol's glyph may sit
	// higher than the letters beside it).
	let lines = 0, bottom = -Infinity;
	for (const x of Array.from(r.getClientRects()).filter(x => x.width > 0 && x.height > 0).sort((a, b) => a.top - b.top)) {
		if (x.top >= bottom - 1) { lines++; bottom = x.bottom; } else bottom = Math.max(bottom, x.bottom);
	}
	return lines > 1;
}).map(el => el.textContent.trim())`

// barContrastJS gives, for each share bar of the stats page's band and
// grade tables, its contrast ratio (WCAG) against the track it is drawn on.
const barContrastJS = `(() => {
	const rgb = (s) => (s.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
	const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
	const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
	return Array.from(document.querySelectorAll(".share-fill")).filter((r) => +r.getAttribute("width") > 0).map((r) => {
		const a = lum(rgb(getComputedStyle(r).fill)), b = lum(rgb(getComputedStyle(r.parentNode.querySelector(".share-track")).fill));
		return [r.closest("table").dataset.testid, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
	});
})()`

// TestLayoutBrowser opens every page the browser tests visit on a desktop
// and on a phone, light and dark, and checks that none scrolls sideways,
// that on the desktop nothing is cut off, and that the labels of the
// history's sort control all say something, that no link of the
// navigation and no button breaks its label over two lines, and that the stats page's
// bars stand out from their tracks in both colour schemes. It saves a screenshot of each
// (layout-<page>-<view>-<scheme>.png in screenshotDir).
func TestLayoutBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"), "--daily=true")
	shots := screenshotDir(t)
	waitDaily(t, base)
	easy := submitAPI(t, base, bEasy)
	submitAPI(t, base, bOther)
	submitAPI(t, base, bExtreme)
	pages := []struct{ name, path, wait string }{
		{"submit", "/", "cell-0"},
		{"generate", "/generate", ""},
		{"history", "/puzzles", "history-table"},
		{"play", fmt.Sprintf("/puzzles/%d", easy.ID), "play-board"},
		{"solution", fmt.Sprintf("/puzzles/%d?solution=1", easy.ID), "board"},
		{"share", "/p/" + strings.ReplaceAll(bEasy, ".", "0"), ""},
		{"stats", "/stats", "chart-backtracks"},
		{"daily", "/daily", "daily-label"},
		{"print", "/puzzles/print", ""},
		{"practice", "/techniques/hidden-single/practice", ""},
	}
	chromeStep(t, ctx, "open the history", chromedp.Navigate(base+"/puzzles"), chromedp.WaitVisible(tidSel("history-table")))
	for _, o := range chromeJS[[][]string](t, ctx, `Array.from(document.querySelectorAll("#sort option")).map(o => [o.value, o.textContent.trim()])`) {
		if o[1] == "" {
			t.Errorf("the history's sort control has a blank label for %q", o[0])
		}
	}
	defer chromeStep(t, ctx, "back to a light desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	for _, v := range layoutViews {
		for _, scheme := range []string{"light", "dark"} {
			opts := []chromedp.EmulateViewportOption{}
			if v.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			chromeStep(t, ctx, v.name+" "+scheme, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, opts...), colorScheme(scheme))
			for _, p := range pages {
				where := fmt.Sprintf("%s on a %s (%d px), %s", p.path, v.name, v.width, scheme)
				wait := chromedp.WaitVisible(chromedp.CSS("main"))
				if p.wait != "" {
					wait = chromedp.WaitVisible(tidSel(p.wait))
				}
				// The pause lets the colour transitions end before the checks and the shot.
				chromeStep(t, ctx, "open "+where, chromedp.Navigate(base+p.path), wait, chromedp.Sleep(250*time.Millisecond))
				checkFits(t, ctx, where, v)
				if p.name == "stats" {
					bars := chromeJS[[][]any](t, ctx, barContrastJS)
					if len(bars) == 0 {
						t.Errorf("%s: no share bar drawn", where)
					}
					for _, b := range bars {
						if r, _ := b[1].(float64); r < 3 {
							t.Errorf("%s: a bar of %v has a contrast of %.2f:1 with its track, want 3:1 or more", where, b[0], r)
						}
					}
				}
				screenshot(t, ctx, shots, fmt.Sprintf("layout-%s-%s-%s", p.name, v.name, scheme))
			}
		}
	}
}

// checkFits checks the page open in ctx on view v: it does not scroll
// sideways, no label breaks over two lines, and on a desktop no content
// is cut off sideways. where names the page in the messages.
func checkFits(t *testing.T, ctx context.Context, where string, v layoutView) {
	t.Helper()
	if w := chromeJS[int](t, ctx, `document.documentElement.scrollWidth`); w > int(v.width) {
		t.Errorf("%s: the page is %d px wide and scrolls sideways: %s", where, w, strings.Join(chromeJS[[]string](t, ctx, widerJS), "; "))
	}
	if split := chromeJS[[]string](t, ctx, splitLabelsJS); len(split) > 0 {
		t.Errorf("%s: a label breaks over two lines: %s", where, strings.Join(split, "; "))
	}
	if cut := chromeJS[[]string](t, ctx, clippedJS); !v.phone && len(cut) > 0 {
		t.Errorf("%s: content cut off sideways in %s", where, strings.Join(cut, "; "))
	}
}

// waitDaily asks for today's puzzle of the day until the server's keeper
// has chosen it (the first request wakes the keeper; a 503 with
// Retry-After means it is at it).
func waitDaily(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // liveness on a loaded machine, not speed
	for {
		res := call(t, "GET", base+"/api/daily", "", nil)
		if res.StatusCode == http.StatusOK {
			return
		}
		if res.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("today's puzzle of the day: status %d", res.StatusCode)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
