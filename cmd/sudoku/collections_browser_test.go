package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// checkCollectionsBrowser walks the collection pages as the logged-in
// player in ctx (a step of TestPlayersBrowser): make a collection through
// the form on /collections, add two puzzles to it with the pages' forms
// (addWithForms), see it listed on
// /collections with its credits and count, and page through its puzzles,
// drawn and linked, on /collections/{id}; both pages fit a desktop and a
// phone without scrolling sideways.
func checkCollectionsBrowser(t *testing.T, ctx context.Context, base, shots string, ids []int64) {
	chromeStep(t, ctx, "make a collection through the form",
		chromedp.Navigate(base+"/collections"), chromedp.WaitVisible(tidSel("collections-empty")),
		chromedp.SendKeys("#c-name", "Ann's Sunday set"), chromedp.SendKeys("#c-author", "Ann"),
		chromedp.SendKeys("#c-source", "the Sunday paper"), chromedp.SendKeys("#c-licence", "CC BY 4.0"),
		chromedp.SendKeys("#c-description", "Two puzzles to start the week."),
		chromedp.Click(tidSel("collection-submit")), chromedp.WaitVisible(tidSel("collection-head")),
	)
	loc := chromeJS[string](t, ctx, `location.pathname`)
	col, err := strconv.ParseInt(strings.TrimPrefix(loc, "/collections/"), 10, 64)
	if err != nil {
		t.Fatalf("the form led to %s, not a collection's page", loc)
	}
	addWithForms(t, ctx, base, shots, col, ids)

	page := fmt.Sprintf("%s/collections/%d", base, col)
	chromeStep(t, ctx, "the collections list", chromedp.Navigate(base+"/collections"), chromedp.WaitVisible(tidSel("collections-table")))
	row := fmt.Sprintf(`[data-testid="collection-row"][data-id="%d"]`, col)
	text := chromeJS[string](t, ctx, `document.querySelector('`+row+`').textContent.replace(/\s+/g, " ")`)
	if !strings.Contains(text, "Ann's Sunday set") || !strings.Contains(text, "the Sunday paper") || !strings.Contains(text, "CC BY 4.0") {
		t.Errorf("/collections lists %q", text)
	}
	if n := chromeJS[string](t, ctx, `document.querySelector('`+row+` td[data-label="Puzzles"]').textContent.trim()`); n != strconv.Itoa(len(ids)) {
		t.Errorf("/collections counts %s puzzles, want %d", n, len(ids))
	}
	if href := chromeJS[string](t, ctx, `document.querySelector('`+row+` a').getAttribute("href")`); href != fmt.Sprintf("/collections/%d", col) {
		t.Errorf("the collection links to %q", href)
	}

	var listed []int64
	chromeStep(t, ctx, "its page, one puzzle a page", chromedp.Navigate(page+"?sort=submitted&order=asc&limit=1"), chromedp.WaitVisible(tidSel("history-table")))
	for range ids {
		if a := chromeJS[string](t, ctx, `document.querySelector('[data-testid="collection-author"]').textContent`); a != "Ann" {
			t.Errorf("the collection's page credits %q", a)
		}
		cells := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-testid="history-row"]')).map(r =>
			r.dataset.id + " " + r.querySelector('a.puzzle-link').getAttribute("href") + " " + r.querySelectorAll('svg.thumb path.thumb-given').length)`)
		if len(cells) != 1 {
			t.Fatalf("a page of one holds %d rows", len(cells))
		}
		f := strings.Fields(cells[0])
		id, _ := strconv.ParseInt(f[0], 10, 64)
		if f[1] != fmt.Sprintf("/puzzles/%d", id) || f[2] != "1" {
			t.Errorf("row %q: want a link to the puzzle and its thumbnail", cells[0])
		}
		listed = append(listed, id)
		if len(listed) < len(ids) {
			chromeStep(t, ctx, "the next page", chromedp.Click(tidSel("next")), chromedp.WaitVisible(tidSel("prev")))
		}
	}
	if fmt.Sprint(listed) != fmt.Sprint(ids) {
		t.Errorf("the collection's pages list %v, want %v", listed, ids)
	}
	checkCollectionsLayout(t, ctx, []string{base + "/collections", page}, shots)
}

// addWithForms adds ids[0] to collection col with the select and button of
// its puzzle page ("Add to collection"), then ids[1] by its number with the
// collection page's "Add a puzzle" form; each page says what it did.
func addWithForms(t *testing.T, ctx context.Context, base, shots string, col int64, ids []int64) {
	text := func(testid string) string {
		return strings.Join(strings.Fields(chromeJS[string](t, ctx, `document.querySelector('[data-testid="`+testid+`"]').textContent`)), " ")
	}
	chromeStep(t, ctx, "add to the collection from the puzzle's page",
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d", base, ids[0])), chromedp.WaitVisible(tidSel("collect-form")),
		chromedp.SetValue(tidSel("collect-select"), strconv.FormatInt(col, 10)),
		chromedp.Click(tidSel("collect-submit")), chromedp.WaitVisible(tidSel("collect-done")),
	)
	if got := text("collect-done"); got != "Added to Ann's Sunday set" {
		t.Errorf("the puzzle's page says %q after the post", got)
	}
	if got := text("collections-of-puzzle"); got != "In Ann's Sunday set" {
		t.Errorf("the puzzle's page lists its collections as %q", got)
	}
	screenshot(t, ctx, shots, "43-collect-added")
	chromeStep(t, ctx, "add a puzzle on the collection's page",
		chromedp.Navigate(fmt.Sprintf("%s/collections/%d", base, col)), chromedp.WaitVisible(tidSel("add-puzzle-form")),
		chromedp.SendKeys(tidSel("add-puzzle-input"), fmt.Sprintf("#%d", ids[1])),
		chromedp.Click(tidSel("add-puzzle-submit")), chromedp.WaitVisible(tidSel("add-puzzle-done")),
	)
	if got, want := text("add-puzzle-done"), fmt.Sprintf("Puzzle #%d added.", ids[1]); got != want {
		t.Errorf("the collection's page says %q after the post, want %q", got, want)
	}
	screenshot(t, ctx, shots, "44-collection-added")
}

// checkCollectionsLayout opens pages on a desktop and a phone: nothing
// scrolls sideways, no label breaks, nothing is cut off on the desktop.
func checkCollectionsLayout(t *testing.T, ctx context.Context, pages []string, shots string) {
	defer chromeStep(t, ctx, "back to a desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900))
	for _, v := range layoutViews {
		opts := []chromedp.EmulateViewportOption{}
		if v.phone {
			opts = append(opts, chromedp.EmulateMobile)
		}
		chromeStep(t, ctx, v.name, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, opts...))
		for i, p := range pages {
			where := fmt.Sprintf("%s on a %s (%d px)", p, v.name, v.width)
			chromeStep(t, ctx, "open "+where, chromedp.Navigate(p), chromedp.WaitVisible(chromedp.CSS("main")), chromedp.Sleep(250*time.Millisecond))
			checkFits(t, ctx, where, v)
			screenshot(t, ctx, shots, fmt.Sprintf("layout-collections-%d-%s", i, v.name))
		}
	}
}
