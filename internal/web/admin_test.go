package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// doc parses an HTML body.
func doc(t *testing.T, body string) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sel is the selection of a data-testid in d.
func sel(d *goquery.Document, id string) *goquery.Selection {
	return d.Find(`[data-testid="` + id + `"]`)
}

// reportPuzzle reports puzzle id from its page in b, wanting status.
func reportPuzzle(t *testing.T, b *browser, id int64, reason, text string, status int) string {
	t.Helper()
	page := fmt.Sprintf("/puzzles/%d", id)
	got, body, res := b.form(page, page+"/flag", url.Values{"reason": {reason}, "text": {text}})
	if got != status {
		t.Fatalf("report %d (%s): %d, want %d; %.300s", id, reason, got, status, body)
	}
	if status == http.StatusSeeOther && res.Header.Get("Location") != page+"?flagged=1" {
		t.Errorf("report %d: Location %q", id, res.Header.Get("Location"))
	}
	return body
}

// moderatorBrowser logs a new moderator in (by session) and returns its
// browser.
func (e *secEnv) moderatorBrowser() *browser {
	b := e.browser()
	b.setCookie(sessionCookie, e.session(e.member(account.RoleModerator)))
	return b
}

// TestReportForm: any visitor reports a puzzle from its page (the first
// report makes them a player), is thanked, and cannot report it twice; a
// reason that is none of the five is refused with the form again.
func TestReportForm(t *testing.T) {
	e := newSecEnv(t, Config{})
	id := seedNew(t, e)
	b := e.browser()
	_, page, _ := b.do(http.MethodGet, fmt.Sprintf("/puzzles/%d", id), "")
	d := doc(t, page)
	if sel(d, "flag-form").Length() != 1 || sel(d, "flag-reason-offensive").Length() != 1 {
		t.Fatalf("the puzzle page has no report form")
	}
	body := reportPuzzle(t, b, id, "nonsense", "", http.StatusBadRequest)
	if d := doc(t, body); !strings.Contains(sel(d, "form-error").Text(), "reason") {
		t.Errorf("a bad reason's page does not say why: %q", sel(d, "form-error").Text())
	}
	reportPuzzle(t, b, id, "offensive", "look at the givens", http.StatusSeeOther)
	if b.cookie(sessionCookie) == nil {
		t.Error("the first report made no player")
	}
	_, page, _ = b.do(http.MethodGet, fmt.Sprintf("/puzzles/%d?flagged=1", id), "")
	if sel(doc(t, page), "flag-done").Length() != 1 {
		t.Error("no thanks after the report")
	}
	body = reportPuzzle(t, b, id, "wrong", "", http.StatusConflict)
	if d := doc(t, body); !strings.Contains(sel(d, "form-error").Text(), "already") {
		t.Errorf("a second report's page does not say why: %q", sel(d, "form-error").Text())
	}
}

// TestAdminFlagsPage: the queue shows each reported puzzle drawn with its
// reports (text escaped), and nothing else; hiding needs a reason, then
// takes the puzzle out of the queue and out of the players' sight, with a
// banner and Restore for moderators; dismissing empties its reports; the
// header links moderators (only) to the queue.
func TestAdminFlagsPage(t *testing.T) { eachStore(t, testAdminFlagsPage) }

func testAdminFlagsPage(t *testing.T, e *secEnv) {
	flagged, other, quiet := seedNew(t, e), seedNew(t, e), seedNew(t, e)
	reportPuzzle(t, e.browser(), flagged, "wrong", "<script>alert(1)</script> row 3", http.StatusSeeOther)
	reportPuzzle(t, e.browser(), flagged, "duplicate", "", http.StatusSeeOther)
	reportPuzzle(t, e.browser(), other, "copyright", "from a book", http.StatusSeeOther)
	mod := e.moderatorBrowser()
	status, page, _ := mod.do(http.MethodGet, "/admin/flags", "")
	if status != http.StatusOK {
		t.Fatalf("/admin/flags: %d", status)
	}
	d := doc(t, page)
	entry := sel(d, fmt.Sprintf("flagged-%d", flagged))
	if entry.Length() != 1 || sel(d, fmt.Sprintf("flagged-%d", other)).Length() != 1 || sel(d, fmt.Sprintf("flagged-%d", quiet)).Length() != 0 {
		t.Fatalf("the queue lists %d entries, want the two reported puzzles", sel(d, "flag-queue").Children().Length())
	}
	if n := entry.Find(`[data-testid="flagged-board"] td`).Length(); n != 81 {
		t.Errorf("the puzzle is drawn with %d cells", n)
	}
	if got := entry.Find(`[data-testid="flag"]`).Length(); got != 2 {
		t.Errorf("%d reports shown, want 2", got)
	}
	if text := entry.Find(`[data-testid="flag-text"]`).Text(); text != "<script>alert(1)</script> row 3" || strings.Contains(page, "<script>alert(1)") {
		t.Errorf("the report's text is not shown as text: %q", text)
	}
	checkFormTokens(t, d, mod)
	if sel(d, "nav-Moderation").Length() != 1 {
		t.Error("no Moderation link in a moderator's header")
	}
	_, page, _ = e.browser().do(http.MethodGet, "/", "")
	if sel(doc(t, page), "nav-Moderation").Length() != 0 {
		t.Error("an anonymous visitor's header links to the moderation pages")
	}

	hide := fmt.Sprintf("/admin/puzzles/%d/hide", flagged)
	status, page, _ = mod.form("/admin/flags", hide, url.Values{"reason": {"  "}})
	if d := doc(t, page); status != http.StatusBadRequest || sel(d, fmt.Sprintf("flagged-%d", flagged)).Find(`[data-testid="form-error"]`).Length() != 1 {
		t.Errorf("hide without a reason: %d, want 400 with the reason by the puzzle", status)
	}
	status, _, res := mod.form("/admin/flags", hide, url.Values{"reason": {"copied from a magazine"}})
	if status != http.StatusSeeOther || res.Header.Get("Location") != fmt.Sprintf("/admin/flags?hidden=%d", flagged) {
		t.Fatalf("hide: %d %s", status, res.Header.Get("Location"))
	}
	_, page, _ = mod.do(http.MethodGet, res.Header.Get("Location"), "")
	if d := doc(t, page); sel(d, "admin-done").Length() != 1 || sel(d, fmt.Sprintf("flagged-%d", flagged)).Length() != 0 {
		t.Error("after hiding, the queue does not say so or still lists the puzzle")
	}
	checkHidden(t, e, mod, flagged, "copied from a magazine")

	dismiss := fmt.Sprintf("/admin/puzzles/%d/dismiss", other)
	if status, _, _ := mod.form("/admin/flags", dismiss, url.Values{}); status != http.StatusSeeOther {
		t.Fatalf("dismiss: %d", status)
	}
	status, page, _ = mod.form("/login", dismiss, url.Values{}) // the queue is empty: no form there
	if status != http.StatusConflict || !strings.Contains(page, "no open flags") {
		t.Errorf("dismiss again: %d, want 409 saying there are no open flags", status)
	}
	if sel(doc(t, page), "flags-empty").Length() != 1 {
		t.Error("the queue is not empty after hiding one and dismissing the other")
	}
}

// checkHidden: puzzle id, hidden for why, is "not found" to players and
// anonymous visitors; a moderator sees it with the banner, and Restore
// brings it back for everyone.
func checkHidden(t *testing.T, e *secEnv, mod *browser, id int64, why string) {
	t.Helper()
	page := fmt.Sprintf("/puzzles/%d", id)
	player := e.browser()
	player.setCookie(sessionCookie, e.session(e.member(account.RolePlayer)))
	for who, b := range map[string]*browser{"anonymous": e.browser(), "player": player} {
		if status, _, _ := b.do(http.MethodGet, page, ""); status != http.StatusNotFound {
			t.Errorf("the hidden puzzle answers %s %d, want 404", who, status)
		}
	}
	status, body, _ := mod.do(http.MethodGet, page, "")
	d := doc(t, body)
	checkFormTokens(t, d, mod)
	if status != http.StatusOK || sel(d, "hidden-banner").Length() != 1 || sel(d, "hidden-reason").Text() != why {
		t.Fatalf("the moderator's page of the hidden puzzle: %d, banner %q", status, sel(d, "hidden-banner").Text())
	}
	if sel(d, "flag-form").Length() != 0 {
		t.Error("the hidden puzzle's page offers to report it")
	}
	status, _, res := mod.form(page, fmt.Sprintf("/admin/puzzles/%d/restore", id), url.Values{})
	if status != http.StatusSeeOther || res.Header.Get("Location") != page {
		t.Fatalf("restore: %d %s", status, res.Header.Get("Location"))
	}
	if status, _, _ := player.do(http.MethodGet, page, ""); status != http.StatusOK {
		t.Errorf("the restored puzzle answers the player %d", status)
	}
}

// TestAdminFlagsPaging: the queue shows flagsPage puzzles a page, oldest
// report first, and Next page goes on from the last one shown to the rest,
// none twice and none left out.
func TestAdminFlagsPaging(t *testing.T) {
	e := newSecEnv(t, Config{})
	var ids []int64
	for range flagsPage + 3 {
		id := seedNew(t, e)
		reportPuzzle(t, e.browser(), id, "other", "", http.StatusSeeOther)
		ids = append(ids, id)
	}
	mod := e.moderatorBrowser()
	var shown []int64
	next := "/admin/flags"
	for pages := 0; next != ""; pages++ {
		if pages == 3 {
			t.Fatal("more than two pages")
		}
		_, body, _ := mod.do(http.MethodGet, next, "")
		d := doc(t, body)
		d.Find(`[data-testid="flag-queue"] > li`).Each(func(_ int, s *goquery.Selection) {
			var id int64
			fmt.Sscanf(s.AttrOr("data-testid", ""), "flagged-%d", &id)
			shown = append(shown, id)
		})
		next = sel(d, "flags-next").AttrOr("href", "")
	}
	if fmt.Sprint(shown) != fmt.Sprint(ids) {
		t.Errorf("the pages show %v, want %v", shown, ids)
	}
	if status, _, _ := mod.do(http.MethodGet, "/admin/flags?after=x", ""); status != http.StatusBadRequest {
		t.Errorf("after=x: %d, want 400", status)
	}
}

// TestAdminAuditPage: the trail shows who did what to which puzzle, when
// and why, newest first, auditPage entries a page; Older and Newest page
// through every entry once.
func TestAdminAuditPage(t *testing.T) {
	e := newSecEnv(t, Config{})
	id := seedNew(t, e)
	reportPuzzle(t, e.browser(), id, "wrong", "", http.StatusSeeOther)
	mia, _ := e.user("mia", account.RoleModerator)
	mod := e.browser()
	mod.setCookie(sessionCookie, e.session(mia))
	if status, body, _ := mod.form("/admin/flags", fmt.Sprintf("/admin/puzzles/%d/hide", id), url.Values{"reason": {"not a sudoku"}}); status != http.StatusSeeOther {
		t.Fatalf("hide: %d %.300s", status, body)
	}
	_, body, _ := mod.do(http.MethodGet, "/admin/audit", "")
	d := doc(t, body)
	first := d.Find(`[data-testid="audit-table"] tbody tr`).First()
	who, what := first.Find(`[data-testid="audit-who"]`).Text(), first.Find(`[data-testid="audit-what"]`).Text()
	on, why := first.Find(`[data-testid="audit-on"]`).Text(), first.Find(`[data-testid="audit-why"]`).Text()
	if !strings.Contains(who, "mia") || !strings.Contains(who, "page") || !strings.Contains(what, "hid a puzzle") ||
		!strings.Contains(on, fmt.Sprintf("#%d", id)) || why != "not a sudoku" || first.Find("time").AttrOr("datetime", "") == "" {
		t.Errorf("the newest entry reads who %q, what %q, on %q, why %q", who, what, on, why)
	}

	for range auditPage {
		e.token("mia") // each token issued is an entry
	}
	var ids []int64
	next := "/admin/audit"
	for pages := 0; next != ""; pages++ {
		if pages == 5 {
			t.Fatal("too many pages")
		}
		_, body, _ := mod.do(http.MethodGet, next, "")
		d := doc(t, body)
		rows := d.Find(`[data-testid="audit-table"] tbody tr`)
		if pages == 0 && rows.Length() != auditPage {
			t.Errorf("the first page has %d entries, want %d", rows.Length(), auditPage)
		}
		if pages > 0 && sel(d, "audit-newest").Length() != 1 {
			t.Error("an older page has no link to the newest")
		}
		rows.Each(func(_ int, s *goquery.Selection) {
			var n int64
			fmt.Sscanf(s.AttrOr("data-testid", ""), "audit-%d", &n)
			ids = append(ids, n)
		})
		next = sel(d, "audit-older").AttrOr("href", "")
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] >= ids[i-1] {
			t.Fatalf("entries not newest first, or shown twice: %v", ids)
		}
	}
	if ids[len(ids)-1] != 1 || len(ids) < auditPage+2 {
		t.Errorf("the pages show %d entries down to #%d: some are missing", len(ids), ids[len(ids)-1])
	}
}

// checkFormTokens: every form of d that posts carries b's CSRF token.
func checkFormTokens(t *testing.T, d *goquery.Document, b *browser) {
	t.Helper()
	want := b.cookie(csrfCookie)
	forms := d.Find(`form[method="post"]`)
	if want == nil || forms.Length() == 0 {
		t.Fatalf("no CSRF cookie (%v) or no form (%d)", want, forms.Length())
	}
	forms.Each(func(_ int, f *goquery.Selection) {
		if got := f.Find(`input[name="_csrf"]`).AttrOr("value", ""); got != want.Value {
			t.Errorf("the form posting to %s carries the token %q, want the cookie's", f.AttrOr("action", ""), got)
		}
	})
}
