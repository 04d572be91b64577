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

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestModerationBrowser walks a flag from a player to the moderators in
// Chromium against a real `sudoku serve`, each person in a browser of
// their own (separate cookies): a player reports a puzzle from its page; a
// moderator logs in, follows the header's Moderation link to /admin/flags,
// sees the puzzle drawn with the report and hides it with a reason; the
// puzzle is then "not found" for the player; an admin logs in and reads the
// act, who did it and why, at /admin/audit, then opens the puzzle (hidden,
// with a banner) and restores it.
func TestModerationBrowser(t *testing.T) {
	racefree.Only(t)
	browser := newBrowser(t)
	db := filepath.Join(t.TempDir(), "sudoku.db")
	addUsers(t, db, map[string]account.Role{"mia": account.RoleModerator, "root": account.RoleAdmin})
	base := startBrowserServer(t, db)
	shots := screenshotDir(t)
	p := submitAPI(t, base, bEasy)
	page := fmt.Sprintf("%s/puzzles/%d", base, p.ID)

	player := personBrowser(t, browser)
	chromeStep(t, player, "the player reports the puzzle",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(page), chromedp.WaitVisible(tidSel("flag-box")),
		chromedp.Click(`[data-testid="flag-box"] summary`), chromedp.WaitVisible(tidSel("flag-form")),
		chromedp.Click(tidSel("flag-reason-wrong")),
		chromedp.SendKeys(tidSel("flag-text-input"), "row 3 looks copied from a magazine"),
		chromedp.Click(tidSel("flag-submit")), chromedp.WaitVisible(tidSel("flag-done")),
	)
	screenshot(t, player, shots, "50-moderation-flagged")

	mod := personBrowser(t, browser)
	logIn(t, mod, base, "mia")
	entry := fmt.Sprintf(`[data-testid="flagged-%d"]`, p.ID)
	chromeStep(t, mod, "the moderator opens the flags from the header",
		chromedp.Click(tidSel("nav-Moderation")), chromedp.WaitVisible(chromedp.CSS(entry)),
	)
	text := chromeJS[string](t, mod, `document.querySelector('`+entry+`').textContent`)
	if !strings.Contains(text, "row 3 looks copied from a magazine") || !strings.Contains(text, "Wrong") {
		t.Errorf("the queue's entry does not show the report: %q", text)
	}
	if n := chromeJS[int](t, mod, `document.querySelectorAll('`+entry+` [data-testid="flagged-board"] td').length`); n != 81 {
		t.Errorf("the flagged puzzle is drawn with %d cells, want 81", n)
	}
	screenshot(t, mod, shots, "51-moderation-queue")
	checkAdminLayout(t, mod, base, shots)
	chromeStep(t, mod, "the moderator hides it",
		chromedp.Navigate(base+"/admin/flags"), chromedp.WaitVisible(chromedp.CSS(entry)),
		chromedp.SendKeys(chromedp.CSS(entry+` [data-testid="hide-reason"]`), "copied from a magazine"),
		chromedp.Click(chromedp.CSS(entry+` [data-testid="hide"]`)), chromedp.WaitVisible(tidSel("admin-done")),
	)

	chromeStep(t, player, "the player opens the puzzle again", chromedp.Navigate(page), chromedp.WaitVisible(tidSel("error-status")))
	if got := strings.TrimSpace(chromeJS[string](t, player, `document.querySelector('[data-testid="error-status"]').textContent`)); got != "404" {
		t.Errorf("the hidden puzzle answers the player %q, want 404", got)
	}
	if res, err := http.Get(page); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("the hidden puzzle answers %v, %v; want 404", res.StatusCode, err)
	} else {
		res.Body.Close()
	}

	admin := personBrowser(t, browser)
	logIn(t, admin, base, "root")
	chromeStep(t, admin, "the admin reads the audit trail",
		chromedp.Navigate(base+"/admin/audit"), chromedp.WaitVisible(tidSel("audit-table")),
	)
	rows := chromeJS[[]string](t, admin, `Array.from(document.querySelectorAll('[data-testid="audit-table"] tbody tr')).map(r => r.textContent.replace(/\s+/g, " "))`)
	found := false
	for _, r := range rows {
		found = found || strings.Contains(r, "hid a puzzle") && strings.Contains(r, "mia") &&
			strings.Contains(r, fmt.Sprintf("#%d", p.ID)) && strings.Contains(r, "copied from a magazine")
	}
	if !found {
		t.Errorf("the audit trail does not show mia hiding puzzle %d and why: %q", p.ID, rows)
	}
	screenshot(t, admin, shots, "52-moderation-audit")
	chromeStep(t, admin, "the admin opens the hidden puzzle and restores it",
		chromedp.Navigate(page), chromedp.WaitVisible(tidSel("hidden-banner")),
		chromedp.Click(tidSel("restore")), chromedp.WaitVisible(tidSel("flag-box")),
	)
	chromeStep(t, player, "the player sees it again", chromedp.Navigate(page), chromedp.WaitVisible(tidSel("play-board")))
}

// personBrowser opens a browser context of its own in browser: its own
// cookies, as another person's browser.
func personBrowser(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // no deadline on the first run
		t.Fatal(err)
	}
	return ctx
}

// logIn logs ctx's browser in as name (password: "password of NAME").
func logIn(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	chromeStep(t, ctx, "log in as "+name,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/login"), chromedp.WaitVisible(tidSel("account-form")),
		chromedp.SendKeys(tidSel("name"), name), chromedp.SendKeys(tidSel("password"), "password of "+name),
		chromedp.Click(tidSel("account-submit")), chromedp.WaitVisible(tidSel("me-name")),
	)
}

// addUsers makes accounts in the archive at db before a server opens it,
// each with the password "password of NAME".
func addUsers(t *testing.T, db string, users map[string]account.Role) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, role := range users {
		hash, err := account.HashPassword("password of " + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddUser(ctx, name, hash, role, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
	}
}

// checkAdminLayout opens the moderation pages (and so the header with its
// Moderation link) on a desktop and a phone, light and dark, as
// TestLayoutBrowser does the others: nothing scrolls sideways, no label
// breaks over two lines, nothing is cut off on the desktop.
func checkAdminLayout(t *testing.T, ctx context.Context, base, shots string) {
	t.Helper()
	defer chromeStep(t, ctx, "back to a light desktop", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	for _, v := range layoutViews {
		for _, scheme := range []string{"light", "dark"} {
			opts := []chromedp.EmulateViewportOption{}
			if v.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			chromeStep(t, ctx, v.name+" "+scheme, chromedp.EmulateReset(), chromedp.EmulateViewport(v.width, v.height, opts...), colorScheme(scheme))
			for _, page := range []string{"flags", "audit"} {
				where := fmt.Sprintf("/admin/%s on a %s, %s", page, v.name, scheme)
				chromeStep(t, ctx, "open "+where, chromedp.Navigate(base+"/admin/"+page), chromedp.WaitVisible(tidSel("admin-nav")), chromedp.Sleep(250*time.Millisecond))
				checkFits(t, ctx, where, v)
				screenshot(t, ctx, shots, fmt.Sprintf("layout-admin-%s-%s-%s", page, v.name, scheme))
			}
		}
	}
}
