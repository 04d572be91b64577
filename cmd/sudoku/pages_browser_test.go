package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// pagePaths gives each page of the route table (a GET outside /api,
// /static and the health checks /healthz and /readyz) the address the walk opens, with data in it: ids
// are filled in by pageURL. A page of the route table missing here fails
// the walk, so a new page is walked from the day it is added.
var pagePaths = map[string][]string{
	"/":                          {"/"},
	"/generate":                  {"/generate"},
	"/puzzles":                   {"/puzzles"},
	"/puzzles/:id":               {"/puzzles/{puzzle}", "/puzzles/{puzzle}?solution=1"},
	"/puzzles/print":             {"/puzzles/print"},
	"/p/:cells":                  {"/p/{cells}"},
	"/stats":                     {"/stats"},
	"/data":                      {"/data"},
	"/daily":                     {"/daily"},
	"/ratings":                   {"/ratings"},
	"/setter":                    {"/setter"},
	"/techniques":                {"/techniques"},
	"/techniques/:slug":          {"/techniques/{slug}"},
	"/techniques/:slug/practice": {"/techniques/{slug}/practice"},
	"/collections":               {"/collections"},
	"/collections/:id":           {"/collections/{collection}"},
	"/me":                        {"/me"},
	"/signup":                    {"/signup"},
	"/login":                     {"/login"},
	"/admin/flags":               {"/admin/flags"},
	"/admin/audit":               {"/admin/audit"},
}

// walkData is what the walk's addresses are filled with.
type walkData struct{ puzzle, collection, cells, slug string }

// pageURL fills path's placeholders with d.
func (d walkData) pageURL(path string) string {
	return strings.NewReplacer("{puzzle}", d.puzzle, "{collection}", d.collection, "{cells}", d.cells, "{slug}", d.slug).Replace(path)
}

// routePages lists the pages of the route table of a server over a fresh
// archive, failing on one pagePaths does not give an address.
func routePages(t *testing.T) []string {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "routes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages []string
	for _, r := range web.New(web.AllParts(db), web.Config{}).Routes() {
		if r.Method != "GET" || strings.HasPrefix(r.Path, "/api/") || r.Path == "/static/*" || r.Path == "/healthz" || r.Path == "/readyz" {
			continue
		}
		paths, ok := pagePaths[r.Path]
		if !ok {
			t.Errorf("page %s of the route table has no address in pagePaths: add one, with data", r.Path)
		}
		pages = append(pages, paths...)
	}
	return pages
}

// axeSource is axe-core's script (SUDOKU_AXE: the path of axe.min.js,
// which .ci/run installs with npm; .ci/prereqs finds it), "" without it.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("SUDOKU_AXE")
	if path == "" || path == "none" {
		if os.Getenv("CI") == "true" {
			t.Fatal("SUDOKU_AXE names no axe-core: .ci/run installs it (npm install axe-core@4.14)")
		}
		t.Log("no axe-core (SUDOKU_AXE): the accessibility checks are left out; npm install --prefix ~/.cache/sudoku-axe axe-core@4.14")
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// axeRunJS runs axe-core on the page and lists its serious and critical
// violations: the rule, its impact and the first elements.
const axeRunJS = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.
	filter(v => v.impact === "serious" || v.impact === "critical").
	map(v => v.id + " (" + v.impact + "): " + v.help + " at " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")))`

// smallTargetsJS lists the controls on the page smaller than 24×24 px
// (WCAG 2.5.8, target size minimum; issue 46), but for the rule's inline
// exception: a link inside a sentence (an inline link whose block holds
// other text). Hidden controls (no box, visually hidden) are left out. A
// practice board's candidates count through their pad.
const smallTargetsJS = `(() => {
	const sel = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';
	const small = [];
	for (const el of document.querySelectorAll(sel)) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || el.closest(".visually-hidden, [hidden], .skip-link")) continue;
		const cs = getComputedStyle(el);
		if (cs.visibility === "hidden" || cs.display === "contents") continue;
		if (el.tagName === "A" && cs.display === "inline") {
			const block = el.parentElement.closest("p, li, dd, dt, td, th, label, h1, h2, h3, figcaption, div, span");
			if (block && block.textContent.replace(el.textContent, "").trim() !== "") continue;
		}
		if (r.width < 23.5 || r.height < 23.5) {
			const name = (el.getAttribute("aria-label") || el.textContent || el.name || el.type || "").trim().slice(0, 30);
			small.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
				' "' + name + '" ' + Math.round(r.width) + "×" + Math.round(r.height));
		}
	}
	// Practice candidates (issue 46): a pencil mark is a third of a cell,
	// too small to tap; the pad's nine keys are its equivalent (the rule's
	// exception), so a practice board needs them, each 24 px or more.
	if (document.querySelector('[data-testid="practice-board"] .marks')) {
		const keys = [...document.querySelectorAll('[data-testid="practice-pad"] button[data-digit]')];
		if (keys.length !== 9) small.push("the practice candidates: " + keys.length + " pad keys, want 9");
		for (const k of keys) {
			const r = k.getBoundingClientRect();
			if (r.width < 23.5 || r.height < 23.5) small.push('practice pad key "' + k.textContent.trim() + '" ' + Math.round(r.width) + "×" + Math.round(r.height));
		}
	}
	return small;
})()`

// TestPagesBrowser opens every page of the route table, with data in it
// (puzzles, a player's attempts, a collection, a flag, the audit), as a
// signed-in admin, at 1280 and 390 px in light and dark: none may scroll
// sideways (document.documentElement.scrollWidth within the window),
// axe-core 4.14, injected into each, may find no serious or critical
// violation (issue 34), and at 390 px no control may be under 24×24 px
// (smallTargetsJS, issue 46).
func TestPagesBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t)
	axe := axeSource(t)
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	base := startBrowserServer(t, dbPath, "--daily=true", "--rate-limit", "0")
	waitDaily(t, base)
	data := seedWalk(t, ctx, base, dbPath)
	pages := routePages(t)
	defer chromeStep(t, ctx, "back to a light desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	for _, v := range layoutViews {
		for _, scheme := range []string{"light", "dark"} {
			opts := []chromedp.EmulateViewportOption{}
			if v.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			chromeStep(t, ctx, v.name+" "+scheme, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, opts...), colorScheme(scheme))
			for _, path := range pages {
				where := fmt.Sprintf("%s at %d px, %s", path, v.width, scheme)
				chromeStep(t, ctx, "open "+where, chromedp.Navigate(base+data.pageURL(path)), chromedp.WaitVisible(chromedp.CSS("main")), chromedp.Sleep(250*time.Millisecond))
				checkPage(t, ctx, where, int(v.width), v.phone && scheme == "light", axe)
			}
		}
	}
}

// checkPage holds the open page to the walk's rules: no sideways scroll
// at width px, with targets every control at least 24×24 px (WCAG 2.5.8),
// and no serious or critical axe-core finding when axe is the axe-core
// source ("" skips it).
func checkPage(t *testing.T, ctx context.Context, where string, width int, targets bool, axe string) {
	t.Helper()
	if w := chromeJS[int](t, ctx, `document.documentElement.scrollWidth`); w > width {
		t.Errorf("%s: the page is %d px wide and scrolls sideways: %s", where, w, strings.Join(chromeJS[[]string](t, ctx, widerJS), "; "))
	}
	if targets {
		for _, f := range chromeJS[[]string](t, ctx, smallTargetsJS) {
			t.Errorf("%s: a target under 24×24 px (WCAG 2.5.8): %s", where, f)
		}
	}
	if axe == "" {
		return
	}
	if !chromeJS[bool](t, ctx, `typeof axe !== "undefined"`) {
		chromeJS[any](t, ctx, axe+"\n;0")
	}
	for _, f := range chromeValue(t, ctx, "axe on "+where, chromedp.Evaluate[[]string](axeRunJS, chromedp.EvalAwaitPromise)) {
		t.Errorf("%s: %s", where, f)
	}
}

// seedWalk fills the archive for the walk and signs the browser in as an
// admin who has played a puzzle, made a collection of two and flagged one.
func seedWalk(t *testing.T, ctx context.Context, base, dbPath string) walkData {
	t.Helper()
	easy := submitAPI(t, base, bEasy)
	other := submitAPI(t, base, bOther)
	submitAPI(t, base, bExtreme)
	const password = "walk every page"
	if err := run(context.Background(), []string{"user", "add", "al", "--role", "admin", "--db", dbPath}, func(string) string { return "" },
		strings.NewReader(password+"\n"), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	chromeStep(t, ctx, "log in as an admin", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/login"), chromedp.WaitVisible(tidSel("account-form")),
		chromedp.SendKeys(tidSel("name"), "al"), chromedp.SendKeys(tidSel("password"), password),
		chromedp.Click(tidSel("account-submit")), chromedp.WaitVisible(tidSel("me-name")))
	js := fmt.Sprintf(`(async () => {
		const post = (url, body) => fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)}).then(r => r.json());
		const a = await post("/api/attempts", {puzzle_id: %[1]d});
		await post("/api/attempts/" + a.id, {outcome: "solved", grid: %[2]q, active_seconds: 200, hints: 1, checks: 1, mistakes: 0});
		const c = await post("/api/collections", {name: "Walk", author: "Al", source: "the walk", licence: "CC0", description: "Two puzzles."});
		await post("/api/collections/" + c.id + "/puzzles", {id: %[1]d});
		await post("/api/collections/" + c.id + "/puzzles", {id: %[3]d});
		await post("/api/puzzles/%[3]d/flag", {reason: "other", text: "for the walk"});
		return String(c.id);
	})()`, easy.ID, easy.Solution, other.ID)
	col := chromeValue(t, ctx, "play, collect and flag", chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	chromeStep(t, ctx, "the techniques", chromedp.Navigate(base+"/techniques"), chromedp.WaitVisible(chromedp.CSS("main")))
	href := chromeJS[string](t, ctx, `(Array.from(document.querySelectorAll('main a[href^="/techniques/"]')).map(a => a.getAttribute("href"))[0] || "")`)
	slug := regexp.MustCompile(`^/techniques/([a-z0-9-]+)`).FindStringSubmatch(href)
	if slug == nil {
		t.Fatalf("no technique page linked from /techniques: %q", href)
	}
	return walkData{puzzle: fmt.Sprint(easy.ID), collection: col, cells: strings.ReplaceAll(bEasy, ".", "0"), slug: slug[1]}
}
