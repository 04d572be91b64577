package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestVariantBrowse: /puzzles filters by variant in its form and keeps
// the filter in its links; the home page lists recent variants once there
// are any; /stats counts the puzzles by variant, classic included.
func TestVariantBrowse(t *testing.T) {
	s, _, _ := realServer(t, 2, Config{})
	home := page(t, get(t, s, "/"), http.StatusOK)
	if n := tid(home, "recent-variants").Length(); n != 0 {
		t.Error(`home page of a classic archive has a "Recent variants" list`)
	}
	stats := page(t, get(t, s, "/stats"), http.StatusOK)
	if n := tid(stats, "variant-table").Length(); n != 0 {
		t.Error("/stats of a classic archive has a variant table")
	}
	for _, name := range []string{"diagonal+-1", "killer-nogivens-1"} {
		rec := post(t, s, "/api/puzzles", puzzleBody(variantSet(t, name).Text()))
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: %d %s", name, rec.Code, rec.Body)
		}
	}
	list := page(t, get(t, s, "/puzzles?variant=killer&sort=clues&order=asc&limit=1"), http.StatusOK)
	if got := list.Find(`#variant option[selected]`).AttrOr("value", ""); got != "killer" {
		t.Errorf("variant control shows %q, want killer", got)
	}
	if n := tid(list, "variant-tag").Length(); n != 1 {
		t.Errorf("%d variant tags, want 1 row: the killer", n)
	}
	if got := tid(list, "total").Text(); !strings.Contains(got, "1 puzzle of variant killer") {
		t.Errorf("summary %q", got)
	}
	if href := list.Find(`a.sort-link`).First().AttrOr("href", ""); !strings.Contains(href, "variant=killer") {
		t.Errorf("sort link %q drops the variant", href)
	}
	both := page(t, get(t, s, "/puzzles?variant=x&variant=killer"), http.StatusOK)
	if got := both.Find(`input[type=hidden][name=variant]`).AttrOr("value", ""); got != "x" {
		t.Errorf("second variant kept as %q, want a hidden x", got)
	}
	if got := tid(both, "variant-empty").Text(); !strings.Contains(got, "of variants killer and x") {
		t.Errorf("empty listing says %q", got)
	}
	classic := page(t, get(t, s, "/puzzles?variant=classic"), http.StatusOK)
	if n := tid(classic, "variant-tag").Length(); n != 0 || !strings.Contains(tid(classic, "total").Text(), "2 puzzles without variant rules") {
		t.Errorf("classic: %d variant tags, summary %q", n, tid(classic, "total").Text())
	}
	home = page(t, get(t, s, "/"), http.StatusOK)
	if n := tid(home, "recent-variants").Find(`[data-testid="mini-variant"]`).Length(); n != 2 {
		t.Errorf(`"Recent variants" lists %d variants, want 2`, n)
	}
	stats = page(t, get(t, s, "/stats"), http.StatusOK)
	for name, want := range map[string]string{"classic": "2", "killer": "1", "x": "1"} {
		if got := tid(stats, "variant-"+name).Find(`[data-testid="variant-count"]`).Text(); got != want {
			t.Errorf("/stats %s: %q puzzles, want %s", name, got, want)
		}
	}
	if n := tid(stats, "variant-table").Find("tbody tr").Length(); n != 3 {
		t.Errorf("/stats variant table: %d rows, want classic, killer, x", n)
	}
}
