package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// transpose writes a puzzle the other way round: rows as columns, the same
// puzzle (the canonical form decides), archived as another entry.
func transpose(p string) string {
	b := make([]byte, 81)
	for r := range 9 {
		for c := range 9 {
			b[r*9+c] = p[c*9+r]
		}
	}
	return string(b)
}

// TestHistoryExportKeepsFilters: the history's download link carries every
// filter the listing shows, so the download is exactly the listed rows, in
// their order, whatever page the link is taken from. Each filter is set so
// that it leaves out a puzzle the others keep (band and unique are implied
// by the grade range here; templates' TestDownloadLinks checks them in the
// link); the test checks that too, so it fails when the link drops any one
// of them.
func TestHistoryExportKeepsFilters(t *testing.T) {
	a := newArchive(t)
	p := a.player()
	const (
		kept1   = ".................1....23.4.........5..2..6.3...71.........37.6..5...8...91......." // 2.8, Direct Hidden Pair
		kept2   = ".................1..2..3..4.....256..14.7.....8...........8.......1...5...3..9.2." // 3.0
		kept3   = "3..2........1.7...7.6.3.5...7...9.8.9...2...4.1.8...5...9.4.3.1...7.2........8..6" // 3.2
		played  = "38..........4..785..9.2.3...6..9....8..3.2..9....4..7...1.7.5..495..6..........92" // 3.0, solved by the player
		noPair  = ".................1....23.4.........5..6.......74..28.......62..5..1.....91.....8." // 2.8, no Direct Hidden Pair
		tooEasy = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..." // 2.6
		tooHard = "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....." // 3.4
	)
	ids := map[string]int64{}
	for _, text := range []string{kept1, kept2, kept3, played, noPair, tooEasy, tooHard, transpose(kept1), "1" + strings.Repeat(".", 80)} {
		ids[text] = p.submit(text).ID
	}
	a.grade()
	p.play(p.submit(played), true)

	filters := url.Values{
		"band": {"medium"}, "grade_min": {"2.7"}, "grade_max": {"3.3"}, "technique": {"Direct Hidden Pair", "pointing"},
		"distinct": {"1"}, "unique": {"1"}, "played": {"unplayed"}, "sort": {"grade"}, "order": {"asc"}, "limit": {"2"},
	}
	listed, links := walkHistory(t, p, "/puzzles?"+filters.Encode())
	want := []int64{ids[kept1], ids[kept2], ids[kept3]}
	if !slices.Equal(listed, want) {
		t.Fatalf("the history lists %v, want %v", listed, want)
	}
	for _, link := range links {
		if got := exportIDs(t, p, link); !slices.Equal(got, listed) {
			t.Errorf("%s exports %v, the history lists %v", link, got, listed)
		}
	}
	// Each filter matters: without it the download would hold a puzzle
	// the listing leaves out.
	for name, extra := range map[string]string{"distinct": transpose(kept1), "played": played, "technique": noPair, "grade_min": tooEasy, "grade_max": tooHard} {
		u, _ := url.Parse(links[0])
		q := u.Query()
		q.Del(name)
		u.RawQuery = q.Encode()
		if got := exportIDs(t, p, u.String()); !slices.Contains(got, ids[extra]) {
			t.Errorf("without %s the export %v still leaves out puzzle %d: a poor test", name, got, ids[extra])
		}
	}
}

// walkHistory follows the history's Next links from path and returns the
// ids of every row listed, in order, and each page's JSON download link.
func walkHistory(t *testing.T, p *player, path string) (ids []int64, links []string) {
	t.Helper()
	for path != "" {
		status, body, _ := p.call(http.MethodGet, path, "")
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", path, status, body)
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		doc.Find(`[data-testid="history-row"]`).Each(func(_ int, row *goquery.Selection) {
			id, _ := strconv.ParseInt(row.AttrOr("data-id", ""), 10, 64)
			ids = append(ids, id)
		})
		link, ok := doc.Find(`[data-testid="download-json"]`).Attr("href")
		if !ok {
			t.Fatalf("%s: no download link", path)
		}
		links = append(links, link)
		path, _ = doc.Find(`[data-testid="next"]`).Attr("href")
	}
	return ids, links
}

// exportIDs downloads link (a JSON export: one object a line) as the
// player and returns the ids of its rows, in order.
func exportIDs(t *testing.T, p *player, link string) []int64 {
	t.Helper()
	status, body, _ := p.call(http.MethodGet, link, "")
	if status != http.StatusOK {
		t.Fatalf("%s: %d %s", link, status, body)
	}
	var ids []int64
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v in %s", link, err, sc.Bytes())
		}
		ids = append(ids, row.ID)
	}
	return ids
}
