package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// bExtreme is the submit page's extreme example (the forum's hardest list
// of 2011): a trace of a few thousand steps.
const bExtreme = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"

// replayState is what the player shows: the counter's figures and the
// 81 cells (text and classes).
type replayState struct {
	Step, Of, Backtracks int64
	Counter              string
	Cells                []string
}

var counterRE = regexp.MustCompile(`^step ([\d,]+) of ([\d,]+) · ([\d,]+) backtracks? so far`)

func readReplay(t *testing.T, ctx context.Context) replayState {
	t.Helper()
	var st replayState
	st.Counter = chromeJS[string](t, ctx, `document.querySelector('[data-testid="replay-counter"]').textContent`)
	st.Cells = chromeJS[[]string](t, ctx, `Array.from(document.querySelectorAll('#board td')).map(td => td.textContent + "|" + td.className)`)
	m := counterRE.FindStringSubmatch(st.Counter)
	if m == nil {
		return st
	}
	num := func(s string) int64 {
		n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("counter %q: %v", st.Counter, err)
		}
		return n
	}
	st.Step, st.Of, st.Backtracks = num(m[1]), num(m[2]), num(m[3])
	return st
}

// waitReplay polls the player until ok says yes, or fails after 20 s.
func waitReplay(t *testing.T, ctx context.Context, what string, ok func(replayState) bool) replayState {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := readReplay(t, ctx)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %q", what, st.Counter)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// replaySuite opens the extreme example's page, plays the search, pauses,
// steps back and forward, then plays to the end at full speed.
func replaySuite(t *testing.T, ctx context.Context, base, shots string) {
	p := submitExtreme(t, base)
	chromeStep(t, ctx, "open the puzzle",
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d?solution=1", base, p.ID)),
		chromedp.WaitVisible(tidSel("replay-play")),
	)
	paused := replayPlayPause(t, ctx, shots)
	replayBackForward(t, ctx, paused)
	replayScrubToEnds(t, ctx, p.Solution)

	// At full speed the whole search plays, and the counter ends at the
	// stored backtracks.
	chromeStep(t, ctx, "full speed, play",
		chromedp.SetValue(tidSel("replay-speed"), "20000"),
		chromedp.Click(tidSel("replay-play")),
	)
	end := waitReplay(t, ctx, "the end of the trace", func(s replayState) bool { return s.Step == s.Of && s.Of > 0 })
	if end.Backtracks != p.Backtracks {
		t.Errorf("at the end: %d backtracks so far, the puzzle has %d", end.Backtracks, p.Backtracks)
	}
	chromeStep(t, ctx, "dark mode mid-way", colorScheme("dark"),
		chromedp.Click(tidSel("replay-solution")))
	screenshot(t, ctx, shots, "10-replay-dark")
	chromeStep(t, ctx, "light again", colorScheme("light"))

	t.Run("the longest trace at full speed", func(t *testing.T) { replayLongest(t, ctx, base) })
}

// replayedPuzzle is what the API answers for the extreme example.
type replayedPuzzle struct {
	ID         int64  `json:"id"`
	Backtracks int64  `json:"backtracks"`
	Band       string `json:"band"`
	Solution   string `json:"solution"`
}

// submitExtreme archives the extreme example through the API; its band
// must be extreme.
func submitExtreme(t *testing.T, base string) replayedPuzzle {
	t.Helper()
	res, err := http.Post(base+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle":"`+bExtreme+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var p replayedPuzzle
	err = json.NewDecoder(res.Body).Decode(&p)
	res.Body.Close()
	if err != nil || p.ID == 0 {
		t.Fatalf("submit: %v (%d)", err, res.StatusCode)
	}
	if p.Band != "extreme" {
		t.Errorf("band %q, want extreme", p.Band)
	}
	return p
}

// replayPlayPause plays the search slowly from the page just opened: the
// board turns to the givens, then cells fill as the counter runs; Pause
// stops it mid-way. It returns the paused state.
func replayPlayPause(t *testing.T, ctx context.Context, shots string) replayState {
	t.Helper()
	solved := readReplay(t, ctx)
	chromeStep(t, ctx, "slow down and press Play",
		chromedp.SetValue(tidSel("replay-speed"), "50"),
		chromedp.Click(tidSel("replay-play")),
	)
	// The board turns to the givens, then cells fill as the counter runs.
	playing := waitReplay(t, ctx, "the counter advances", func(s replayState) bool { return s.Step >= 20 })
	if playing.Of < 100 {
		t.Fatalf("trace of %d steps: not a hard puzzle", playing.Of)
	}
	changed := 0
	for i := range solved.Cells {
		if solved.Cells[i] != playing.Cells[i] {
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("no cell changed while playing")
	}
	screenshot(t, ctx, shots, "10-replay-playing")
	chromeStep(t, ctx, "pause", chromedp.Click(tidSel("replay-play")))
	paused := waitReplay(t, ctx, "paused", func(s replayState) bool { return true })
	time.Sleep(200 * time.Millisecond)
	if again := readReplay(t, ctx); again.Step != paused.Step {
		t.Fatalf("still playing after Pause: step %d then %d", paused.Step, again.Step)
	}
	if paused.Step == 0 || paused.Step == paused.Of {
		t.Fatalf("paused at step %d of %d", paused.Step, paused.Of)
	}
	return paused
}

// replayBackForward steps back from paused, which changes a cell, and
// forward again, which restores paused.
func replayBackForward(t *testing.T, ctx context.Context, paused replayState) {
	t.Helper()
	chromeStep(t, ctx, "step back", chromedp.Click(tidSel("replay-back")))
	back := readReplay(t, ctx)
	if back.Step != paused.Step-1 {
		t.Errorf("step back: step %d, want %d", back.Step, paused.Step-1)
	}
	diff := 0
	for i := range back.Cells {
		if back.Cells[i] != paused.Cells[i] {
			diff++
		}
	}
	if diff == 0 {
		t.Error("step back changed no cell")
	}
	chromeStep(t, ctx, "step forward", chromedp.Click(tidSel("replay-forward")))
	if fwd := readReplay(t, ctx); fwd.Counter != paused.Counter || strings.Join(fwd.Cells, ";") != strings.Join(paused.Cells, ";") {
		t.Errorf("back then forward does not restore the paused state:\n%q\n%q", fwd.Counter, paused.Counter)
	}
}

// replayScrubToEnds scrubs back to the start, which shows the givens
// alone, and goes to the solution, which shows solution.
func replayScrubToEnds(t *testing.T, ctx context.Context, solution string) {
	t.Helper()
	chromeStep(t, ctx, "scrub to the start", chromedp.SetValue(tidSel("replay-scrub"), "0"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="replay-scrub"]').dispatchEvent(new Event("input"))`))
	start := readReplay(t, ctx)
	for i, c := range start.Cells {
		text, _, _ := strings.Cut(c, "|")
		if want := bExtreme[i : i+1]; text != strings.Trim(want, ".") {
			t.Fatalf("at step 0, cell %d shows %q, want %q", i, text, want)
		}
	}

	chromeStep(t, ctx, "go to the solution", chromedp.Click(tidSel("replay-solution")))
	sol := readReplay(t, ctx)
	var digits strings.Builder
	for _, c := range sol.Cells {
		text, _, _ := strings.Cut(c, "|")
		digits.WriteString(text)
	}
	if digits.String() != solution {
		t.Errorf("grid at 'solution' %q, want %q", digits.String(), solution)
	}
}

// longestPuzzle has the longest trace of the collections under engine 2:
// 85,191 steps (17_clue, line 10,646).
const longestPuzzle = "................12..3.45.........3.......1.....62.7......4...86.1.......5...9.4.."

// replayLongest plays the longest trace at full speed to its end, checks
// the counter against the stored backtracks, and logs the frame times the
// page saw (no timing assertion: the machine is shared).
func replayLongest(t *testing.T, ctx context.Context, base string) {
	res, err := http.Post(base+"/api/puzzles", "application/json", strings.NewReader(`{"puzzle":"`+longestPuzzle+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ID         int64 `json:"id"`
		Backtracks int64 `json:"backtracks"`
	}
	err = json.NewDecoder(res.Body).Decode(&p)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	chromeStep(t, ctx, "open the puzzle",
		chromedp.Navigate(fmt.Sprintf("%s/puzzles/%d?solution=1", base, p.ID)),
		chromedp.WaitVisible(tidSel("replay-play")),
		chromedp.SetValue(tidSel("replay-speed"), "20000"),
		chromedp.Click(tidSel("replay-forward")),
	)
	waitReplay(t, ctx, "the trace loads", func(s replayState) bool { return s.Step == 1 })
	chromeJS[any](t, ctx, `window.__frames = []; (function f(ts) { window.__frames.push(ts); if (window.__frames.length < 100000) requestAnimationFrame(f); })(performance.now()); null`)
	chromeStep(t, ctx, "play", chromedp.Click(tidSel("replay-play")))
	end := waitReplay(t, ctx, "the end", func(s replayState) bool { return s.Step == s.Of })
	if end.Of != 85_191 {
		t.Errorf("trace of %d steps, want 85,191", end.Of)
	}
	if end.Backtracks != p.Backtracks {
		t.Errorf("at the end: %d backtracks so far, the puzzle has %d", end.Backtracks, p.Backtracks)
	}
	gaps := chromeJS[[]float64](t, ctx, `(function () { const f = window.__frames, g = []; for (let i = 1; i < f.length; i++) g.push(f[i] - f[i-1]); return g.sort((a, b) => a - b); })()`)
	if len(gaps) > 0 {
		t.Logf("%d frames while playing 85,191 steps: median %.1f ms, p99 %.1f ms, max %.1f ms between frames",
			len(gaps), gaps[len(gaps)/2], gaps[len(gaps)*99/100], gaps[len(gaps)-1])
	}
}
