package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// Puzzles the browser test types, pastes and submits: Project Euler 96's
// first grid (the submit page's easy example), another puzzle, and the
// submit page's hard example (example 3).
const (
	bEasy         = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	bEasySolution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
	bOther        = "2.......863.....299.4...6.7..39.24.....547............3.68712.4.2.....6..4..6..8."
	bHard         = ".8..1......5....3.......4.....6.5.7.89....2.....3.....2.....1.9..67........4....."
)

// TestBrowser drives Chromium through the pages of a real `sudoku serve` on
// a fresh database: typing, pasting, a rejected puzzle, sorting the
// history, the pages without JavaScript, and a phone in dark mode. It saves
// a screenshot of each page (see screenshotDir).
func TestBrowser(t *testing.T) {
	racefree.Only(t)
	ctx := newBrowser(t) // before the server: a missing browser skips at once
	base := startBrowserServer(t, filepath.Join(t.TempDir(), "sudoku.db"))
	browserSuite(t, ctx, base)
}

// startBrowserServer runs `sudoku serve` on a free loopback port over a
// new database, through run as main calls it, and returns its base URL
// once /healthz answers. The server stops when the test ends.
// Extra flags come after the defaults, so they can override them (the
// last of a repeated flag wins).
func startBrowserServer(t *testing.T, db string, extra ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // serve listens on it again at once; another taker in between is unlikely
	var logs lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		args := append([]string{"serve", "--addr", addr, "--db", db, "--daily=false"}, extra...)
		done <- run(ctx, args, func(string) string { return "" },
			strings.NewReader(""), io.Discard, &logs)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			done <- err // for the cleanup
			t.Fatalf("serve stopped before answering: %v\n%s", err, logs.String())
		default:
		}
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not answer /healthz within 30 s:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lockedBuffer collects the server's log for a failure message.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// findBrowser returns the path of a Chromium or Chrome binary, or "".
// SUDOKU_BROWSER, set by make test (.ci/prereqs), names it, or "none";
// reading it makes the browser part of the test cache's key, so that
// installing Chromium is never answered by a cached skip.
func findBrowser() string {
	switch v := os.Getenv("SUDOKU_BROWSER"); v {
	case "none":
		return ""
	case "":
	default:
		return v
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a headless browser for the test and returns its
// context. Without a browser the test is skipped, unless CI=true: there a
// missing browser fails the run, so the browser tests cannot silently stop
// running.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	path := findBrowser()
	if path == "" {
		msg := "no Chromium found on PATH: install it (apt-get install -y chromium) to run the browser tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser on a context without a deadline: cancelling the
	// first Run's context would kill the browser.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// chromeStep runs actions with a deadline, failing the test with what was tried.
func chromeStep(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// chromeValue runs one action that returns a value, with a deadline.
func chromeValue[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// chromeJS evaluates expression and decodes its result.
func chromeJS[T any](t *testing.T, ctx context.Context, expression string) T {
	t.Helper()
	return chromeValue(t, ctx, "evaluate "+expression, chromedp.Evaluate[T](expression))
}

// screenshotDir is where screenshots go: $SCREENSHOT_DIR if set (to keep
// them), else the test's temporary directory.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("SCREENSHOT_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// screenshot saves the whole page as name.png in dir.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	saveShot(t, dir, name, chromeValue(t, ctx, "screenshot "+name, chromedp.FullScreenshot(100)))
}

// screenshotViewport saves what fits on the screen as name.png in dir.
func screenshotViewport(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	saveShot(t, dir, name, chromeValue(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot()))
}

func saveShot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// gridValues reads the 81 cells of the grid editor as puzzle text.
func gridValues(t *testing.T, ctx context.Context) string {
	t.Helper()
	return chromeJS[string](t, ctx, `Array.from(document.querySelectorAll("[data-grid-editor] input")).map(i => i.value || ".").join("")`)
}

// tidSel selects by data-testid.
func tidSel(id string) chromedp.CSS { return chromedp.CSS(`[data-testid="` + id + `"]`) }

// scripts turns the page's JavaScript on or off.
func scripts(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	})
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// browserSuite runs the browser steps against the server at base, in
// order (later steps read what earlier ones archived).
func browserSuite(t *testing.T, ctx context.Context, base string) {
	shots := screenshotDir(t)
	for _, step := range []struct {
		name string
		run  func(t *testing.T, ctx context.Context, base, shots string)
	}{
		{"type a puzzle cell by cell and read the solution", browserTypePuzzle},
		{"paste a puzzle into one cell", browserPaste},
		{"keyboard: arrows move, Backspace clears", browserKeyboard},
		{"a conflicting puzzle comes back with the cells marked", browserConflict},
		{"sort the history by backtracks", browserSortHistory},
		{"replay the search of a hard puzzle", replaySuite},
		{"stats and the band filter", browserStatsBands},
		{"without JavaScript the paste box still submits", browserNoJS},
		{"phone and dark mode", browserPhoneDark},
		{"import a file from the submit page, then download the history", browserImport},
	} {
		t.Run(step.name, func(t *testing.T) { step.run(t, ctx, base, shots) })
	}
}

// browserTypePuzzle: types a puzzle cell by cell, submits it and reads the
// solution off the puzzle page.
func browserTypePuzzle(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "open the submit page",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(tidSel("cell-0")),
	)
	if cls := chromeJS[string](t, ctx, `document.documentElement.className`); cls != "js" {
		t.Fatalf("html class %q: app.js did not run", cls)
	}
	for i := range 81 {
		if bEasy[i] == '.' {
			continue
		}
		chromeStep(t, ctx, fmt.Sprintf("type %c into cell %d", bEasy[i], i),
			chromedp.SendKeys(tidSel("cell-"+strconv.Itoa(i)), bEasy[i:i+1]))
	}
	if got := gridValues(t, ctx); got != bEasy {
		t.Fatalf("grid reads\n%s\nwant\n%s", got, bEasy)
	}
	text := chromeValue(t, ctx, "read the paste box", chromedp.Value(tidSel("paste-box")))
	if strings.ReplaceAll(text, "\n", "") != bEasy {
		t.Fatalf("paste box not kept in step with the grid: %q", text)
	}
	screenshot(t, ctx, shots, "1-submit-typed")
	chromeStep(t, ctx, "submit",
		chromedp.Click(tidSel("submit")),
		chromedp.WaitVisible(tidSel("show-solution")),
	)
	loc := chromeValue(t, ctx, "location", chromedp.Location())
	if !strings.Contains(loc, "/puzzles/") || !strings.HasSuffix(loc, "?new=1") {
		t.Errorf("landed on %s", loc)
	}
	// Submitting does not spoil (issue 34): the solution stays folded
	// until asked for.
	if open := chromeJS[bool](t, ctx, `document.querySelector("[data-testid=analysis]").open`); open {
		t.Error("the solution is shown on the page a submission lands on")
	}
	// Clicked from the page's script, not by a node id: the id chromedp
	// found may belong to the document the landing's redirect replaced
	// ("Could not find node with given id" on a loaded machine).
	chromeJS[bool](t, ctx, `(document.querySelector("[data-testid=show-solution]").click(), true)`)
	chromeStep(t, ctx, "Show solution", chromedp.WaitVisible(tidSel("board")))
	cells := chromeJS[string](t, ctx, `Array.from(document.querySelectorAll("[data-testid=board] td")).map(td => td.textContent.trim()).join("")`)
	if cells != bEasySolution {
		t.Errorf("board shows\n%s\nwant\n%s", cells, bEasySolution)
	}
	givens := chromeJS[int](t, ctx, `document.querySelectorAll("[data-testid=board] td.given").length`)
	if want := 81 - strings.Count(bEasy, "."); givens != want {
		t.Errorf("%d givens marked, want %d", givens, want)
	}
	screenshot(t, ctx, shots, "2-puzzle")
}

// browserPaste: pastes a one-line puzzle and a drawn grid into single cells
// and checks the whole grid.
func browserPaste(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "open the submit page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tidSel("cell-40")))
	paste := func(cell int, text string) {
		b, _ := json.Marshal(text)
		chromeJS[bool](t, ctx, fmt.Sprintf(`(() => {
			const dt = new DataTransfer();
			dt.setData("text/plain", %s);
			const el = document.querySelector('[data-testid="cell-%d"]');
			el.focus();
			return el.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
		})()`, b, cell))
	}
	paste(40, bOther)
	if got := gridValues(t, ctx); got != bOther {
		t.Errorf("after pasting one line into cell 40 the grid reads\n%s\nwant\n%s", got, bOther)
	}
	// A drawn grid with separators, as people copy it from a web page.
	var drawn strings.Builder
	for r := range 9 {
		if r == 3 || r == 6 {
			drawn.WriteString("------+-------+------\n")
		}
		for c := range 9 {
			if c == 3 || c == 6 {
				drawn.WriteString("| ")
			}
			drawn.WriteString(strings.ReplaceAll(bEasy[r*9+c:r*9+c+1], ".", "0") + " ")
		}
		drawn.WriteString("\n")
	}
	paste(80, drawn.String())
	if got := gridValues(t, ctx); got != bEasy {
		t.Errorf("after pasting a drawn grid into cell 80 the grid reads\n%s\nwant\n%s", got, bEasy)
	}
	if got := chromeValue(t, ctx, "status", chromedp.Text(tidSel("grid-status"))); !strings.Contains(got, "whole puzzle") {
		t.Errorf("status line %q", got)
	}
	screenshot(t, ctx, shots, "3-submit-pasted")
}

// browserKeyboard: the arrow keys move, Backspace clears, and the grid has
// one tab stop.
func browserKeyboard(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "open the submit page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tidSel("cell-0")))
	chromeStep(t, ctx, "type and move",
		chromedp.SendKeys(tidSel("cell-0"), "12"),                       // 1 in cell 0, 2 in cell 1
		chromedp.SendKeys(tidSel("cell-2"), kb.ArrowDown+"3"),           // cell 2, down to 11, 3 there (focus moves to 12)
		chromedp.SendKeys(tidSel("cell-12"), kb.ArrowLeft+kb.Backspace), // left to 11, Backspace clears it
	)
	if got := gridValues(t, ctx)[:12]; got != "12.........." {
		t.Errorf("first cells %q, want 12 then blanks", got)
	}
	focused := chromeJS[string](t, ctx, `document.activeElement.dataset.cell`)
	if focused != "11" {
		t.Errorf("focus on cell %s, want 11", focused)
	}
	tabStops := chromeJS[int](t, ctx, `document.querySelectorAll('[data-grid-editor] input:not([tabindex="-1"])').length`)
	if tabStops != 1 {
		t.Errorf("%d tab stops in the grid, want 1 (roving tabindex)", tabStops)
	}
}

// browserConflict: two 7s in a column are marked at once, and again by
// the server with its message, the input kept.
func browserConflict(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "open the submit page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tidSel("cell-0")))
	chromeStep(t, ctx, "type two 7s in column 1",
		chromedp.SendKeys(tidSel("cell-0"), "7"),
		chromedp.SendKeys(tidSel("cell-27"), "7"),
		chromedp.SendKeys(tidSel("cell-40"), "5"),
	)
	// The grid marks the clash at once ...
	live := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-grid-editor] td.conflict input")).map(i => i.dataset.cell)`)
	if !slices.Equal(live, []string{"0", "27"}) {
		t.Errorf("live marks on %v, want [0 27]", live)
	}
	// ... and the server says so too.
	chromeStep(t, ctx, "submit",
		chromedp.Click(tidSel("submit")),
		chromedp.WaitVisible(tidSel("form-error")),
	)
	msg := chromeValue(t, ctx, "error message", chromedp.Text(tidSel("form-error-message")))
	if !strings.Contains(msg, "Column 1 has two 7s") {
		t.Errorf("message %q", msg)
	}
	marked := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll("[data-grid-editor] td.conflict input")).map(i => i.dataset.cell)`)
	if !slices.Equal(marked, []string{"0", "27"}) {
		t.Errorf("server marked %v, want [0 27]", marked)
	}
	if got := gridValues(t, ctx); got[0] != '7' || got[27] != '7' || got[40] != '5' {
		t.Errorf("input not kept: %s", got)
	}
	screenshot(t, ctx, shots, "4-submit-conflict")
}

// browserSortHistory: archives the five examples through the form and sorts
// the history by backtracks both ways, the order kept in the URL.
func browserSortHistory(t *testing.T, ctx context.Context, base, shots string) {
	// Archive the examples, easy to extreme, through the form.
	for i := 1; i <= 5; i++ {
		chromeStep(t, ctx, fmt.Sprintf("submit example %d", i),
			chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(tidSel("cell-0")),
			chromedp.Click(tidSel("example-"+strconv.Itoa(i))),
			chromedp.Click(tidSel("submit")),
			chromedp.WaitVisible(tidSel("show-solution")),
		)
	}
	chromeStep(t, ctx, "open the history",
		chromedp.Navigate(base+"/puzzles"),
		chromedp.WaitVisible(tidSel("history-table")),
	)
	read := func() []int64 {
		raw := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-testid="col-backtracks"]')).map(td => td.textContent.replace(/,/g, ""))`)
		var out []int64
		for _, s := range raw {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				t.Fatalf("backtracks cell %q: %v", s, err)
			}
			out = append(out, n)
		}
		return out
	}
	chromeStep(t, ctx, "sort by backtracks", chromedp.Click(tidSel("sort-backtracks")), chromedp.WaitVisible(chromedp.CSS(`th[data-testid="th-backtracks"][aria-sort="descending"]`)))
	desc := read()
	if len(desc) < 5 || !slices.IsSortedFunc(desc, func(a, b int64) int { return int(b - a) }) {
		t.Errorf("descending: %v", desc)
	}
	screenshot(t, ctx, shots, "5-history-backtracks-desc")
	chromeStep(t, ctx, "flip the order", chromedp.Click(tidSel("sort-backtracks")), chromedp.WaitVisible(chromedp.CSS(`th[data-testid="th-backtracks"][aria-sort="ascending"]`)))
	asc := read()
	if !slices.IsSorted(asc) || len(asc) != len(desc) {
		t.Errorf("ascending: %v", asc)
	}
	loc := chromeValue(t, ctx, "location", chromedp.Location())
	if !strings.Contains(loc, "sort=backtracks") || !strings.Contains(loc, "order=asc") {
		t.Errorf("sort state not in the URL: %s", loc)
	}
}

// browserStatsBands: the stats page, light and dark, and its extreme band's
// link to the history filtered by band.
func browserStatsBands(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "open the stats", chromedp.Navigate(base+"/stats"), chromedp.WaitVisible(tidSel("chart-backtracks")))
	screenshot(t, ctx, shots, "11-stats")
	chromeStep(t, ctx, "dark", colorScheme("dark"), chromedp.Reload(), chromedp.WaitVisible(tidSel("chart-backtracks")))
	screenshot(t, ctx, shots, "12-stats-dark")
	chromeStep(t, ctx, "light again", colorScheme("light"))
	chromeStep(t, ctx, "follow the extreme band", chromedp.Click(chromedp.CSS(`[data-testid="band-extreme"] a`)), chromedp.WaitVisible(tidSel("history-table")))
	bands := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-testid="col-band"] [data-band]')).map(b => b.dataset.band)`)
	if len(bands) == 0 {
		t.Fatal("no puzzle listed in the extreme band")
	}
	for _, b := range bands {
		if b != "extreme" {
			t.Errorf("band filter extreme lists a %s puzzle", b)
		}
	}
	if v := chromeJS[string](t, ctx, `document.querySelector('[data-testid="band-filter"]').value`); v != "extreme" {
		t.Errorf("band select shows %q", v)
	}
	screenshot(t, ctx, shots, "13-history-extreme")
}

// browserNoJS: with scripts off the paste box still submits.
func browserNoJS(t *testing.T, ctx context.Context, base, shots string) {
	tab := ctx
	chromeStep(t, tab, "open the submit page with scripts off",
		scripts(false),
		chromedp.Navigate(base+"/?example=3"),
		chromedp.WaitVisible(tidSel("paste-box")),
	)
	// Page scripts are off, so nothing is evaluated in the page: the
	// hint shown only without JavaScript proves they did not run.
	defer chromeStep(t, tab, "turn scripts back on", scripts(true))
	chromeStep(t, tab, "see the no-JavaScript hint", chromedp.WaitVisible(chromedp.CSS(".hint.no-js-only")))
	screenshot(t, tab, shots, "6-submit-no-js")
	chromeStep(t, tab, "submit the example from the paste box",
		chromedp.Click(tidSel("submit")),
		chromedp.WaitVisible(tidSel("show-solution")),
	)
	if got := chromeValue(t, tab, "puzzle string", chromedp.AttributeValue(tidSel("puzzle-string"), "value")); got.Value != bHard {
		t.Errorf("puzzle page shows %q, want example 3", got.Value)
	}
}

// browserPhoneDark: the submit page does not scroll sideways on a phone in dark
// mode; the history and a puzzle page are shot there too.
func browserPhoneDark(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "phone, dark",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		colorScheme("dark"),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(tidSel("cell-0")),
	)
	overflow := chromeJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`)
	if overflow {
		t.Error("the submit page scrolls sideways on a phone")
	}
	screenshotViewport(t, ctx, shots, "7-phone-dark-submit")
	chromeStep(t, ctx, "history on a phone", chromedp.Navigate(base+"/puzzles"), chromedp.WaitVisible(tidSel("history-table")))
	screenshotViewport(t, ctx, shots, "8-phone-dark-history")
	chromeStep(t, ctx, "a puzzle on a phone", chromedp.Navigate(base+"/puzzles/1"), chromedp.WaitVisible(tidSel("play-board")))
	screenshotViewport(t, ctx, shots, "9-phone-dark-puzzle")
}

// browserImport: uploads a file from the submit page (its summary and
// rejected lines, on a desktop and a phone), a file too large, and
// downloads the history as CSV.
func browserImport(t *testing.T, ctx context.Context, base, shots string) {
	chromeStep(t, ctx, "desktop, light", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))
	// Two 17-clue puzzles no other step archives, the first again with
	// 0 blanks (a duplicate), a line of markup and clashing givens.
	a := ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
	b := ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7....."
	file := filepath.Join(t.TempDir(), "collection.txt")
	text := "# two 17-clue puzzles\n" + a + "\n" + b + " rated 9.1\n" + strings.ReplaceAll(a, ".", "0") + "\n" +
		"<b>not a puzzle</b>\n" + "11" + a[2:] + "\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	chromeStep(t, ctx, "upload the file",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(tidSel("upload-file")),
		chromedp.SetUploadFiles(tidSel("upload-file"), []string{file}),
		chromedp.Click(tidSel("upload-submit")),
		chromedp.WaitVisible(tidSel("import-summary")),
	)
	summary := chromeValue(t, ctx, "summary", chromedp.Text(tidSel("import-summary")))
	if got := strings.Join(strings.Fields(summary), " "); got != "Imported 2, duplicates 1, rejected 2" {
		t.Errorf("summary %q", got)
	}
	rows := chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-testid="reject-row"]')).map(r => r.querySelector('[data-testid="reject-line"]').textContent + " " + r.querySelector('[data-testid="reject-text"]').textContent)`)
	if want := []string{"5 <b>not a puzzle</b>", "6 11" + a[2:]}; !slices.Equal(rows, want) {
		t.Errorf("rejected rows %q, want %q", rows, want)
	}
	screenshot(t, ctx, shots, "10-import-results")
	// The pause lets the colour transitions finish before the shot.
	chromeStep(t, ctx, "dark", colorScheme("dark"), chromedp.Sleep(300*time.Millisecond))
	screenshot(t, ctx, shots, "11-import-results-dark")
	chromeStep(t, ctx, "phone, dark", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Sleep(300*time.Millisecond))
	if chromeJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth`) {
		t.Error("the import results scroll sideways on a phone")
	}
	screenshot(t, ctx, shots, "12-phone-dark-import-results")
	chromeStep(t, ctx, "desktop, light again", chromedp.EmulateReset(), chromedp.EmulateViewport(1280, 900), colorScheme("light"))

	// A file past 1 MiB comes back as the form and the reason, not as
	// a connection reset.
	big := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte(a+"\n"), 3<<20/82), 0o644); err != nil {
		t.Fatal(err)
	}
	chromeStep(t, ctx, "upload a 3 MiB file",
		chromedp.SetUploadFiles(tidSel("upload-file"), []string{big}),
		chromedp.Click(tidSel("upload-submit")),
		chromedp.WaitVisible(tidSel("upload-error-message")),
	)
	if msg := chromeValue(t, ctx, "error", chromedp.Text(tidSel("upload-error-message"))); !strings.Contains(msg, "larger than 1 MiB") {
		t.Errorf("error %q", msg)
	}
	screenshotViewport(t, ctx, shots, "13-import-too-large")

	chromeStep(t, ctx, "open the history by clues, fewest first",
		chromedp.Navigate(base+"/puzzles?sort=clues&order=asc"),
		chromedp.WaitVisible(tidSel("downloads")),
	)
	href := chromeValue(t, ctx, "CSV link", chromedp.AttributeValue(tidSel("download-csv"), "href")).Value
	if href != "/api/export?format=csv&order=asc&sort=clues" {
		t.Fatalf("CSV link %q", href)
	}
	res, err := http.Get(base + href)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	csv, _ := io.ReadAll(res.Body)
	// The fewest clues first: the two 17-clue puzzles lead.
	lines := strings.Split(string(csv), "\n")
	if res.StatusCode != http.StatusOK || len(lines) < 3 || !strings.HasPrefix(lines[0], "id,puzzle,") ||
		!strings.Contains(lines[1], ",17,") || !strings.Contains(lines[2], ",17,") {
		t.Errorf("CSV download: %d\n%.400s", res.StatusCode, csv)
	}
}
