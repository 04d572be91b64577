package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCrashAttempts kills `sudoku serve` with SIGKILL while 16 players
// start and finish attempts, several times over one database: after each
// restart every acknowledged attempt is there with its acknowledged outcome,
// the players' sessions still hold, and each player's counts agree with
// their attempts.
func TestCrashAttempts(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	bin := buildBinary(t)
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	var puzzles []puzzleJSON
	players := make([]*crashPlayer, 16)
	for round := 0; round <= *crashRounds; round++ {
		p := startProc(t, bin, dbPath, "--rate-limit", "0")
		if round == 0 {
			for _, g := range []string{playEasy, bEasy2, bEasy3} {
				var pz puzzleJSON
				newClient(t, p.url).json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, g), http.StatusCreated, &pz)
				puzzles = append(puzzles, pz)
			}
			for i := range players {
				players[i] = &crashPlayer{c: newClient(t, p.url), finished: map[int64]string{}}
			}
		} else {
			for _, pl := range players {
				pl.c.base = p.url
				pl.check(t)
			}
			if t.Failed() {
				t.Fatalf("after kill %d\n%s", round, p.logs)
			}
		}
		if round == *crashRounds {
			p.kill()
			break
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for i, pl := range players {
			wg.Go(func() { pl.play(ctx, p.url, puzzles, rand.New(rand.NewPCG(seed, uint64(round*100+i)))) })
		}
		time.Sleep(200*time.Millisecond + time.Duration(rng.Int64N(int64(600*time.Millisecond))))
		p.kill()
		cancel()
		wg.Wait()
		n := 0
		for _, pl := range players {
			n += len(pl.finished)
		}
		t.Logf("round %d: %d finishes acknowledged in all", round+1, n)
	}
}

// Two more easy puzzles of Norvig's collection.
const (
	bEasy2 = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3"
	bEasy3 = "......9.7...42.18....7.5.261..9.4....5.....4....5.7..992.1.8....34.59...5.7......"
)

// A crashPlayer plays through its own cookie jar and remembers what the
// server acknowledged.
type crashPlayer struct {
	c        *client
	mu       sync.Mutex
	finished map[int64]string // attempt id -> acknowledged outcome
	solved   int
}

// post sends a JSON body; any failure (the kill) is just a false.
func (pl *crashPlayer) post(ctx context.Context, url, body string, out any) (int, bool) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := pl.c.http.Do(req)
	if err != nil {
		return 0, false
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, false
	}
	return res.StatusCode, json.Unmarshal(b, out) == nil
}

func (pl *crashPlayer) play(ctx context.Context, base string, puzzles []puzzleJSON, rng *rand.Rand) {
	for ctx.Err() == nil {
		pz := puzzles[rng.IntN(len(puzzles))]
		var a attemptJSON
		if _, ok := pl.post(ctx, base+"/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), &a); !ok || a.ID == 0 {
			continue
		}
		body, outcome := `{"outcome": "gave_up", "active_seconds": 3}`, "gave_up"
		if rng.IntN(3) > 0 {
			body, outcome = solvedBody(pz.Solution, 5), "solved"
		}
		var done attemptJSON
		if status, ok := pl.post(ctx, fmt.Sprintf("%s/api/attempts/%d", base, a.ID), body, &done); ok && status == http.StatusOK {
			pl.mu.Lock()
			pl.finished[a.ID] = outcome
			if outcome == "solved" {
				pl.solved++
			}
			pl.mu.Unlock()
		}
	}
}

// check reads the player's whole history from the restarted server.
func (pl *crashPlayer) check(t *testing.T) {
	t.Helper()
	got := map[int64]string{}
	solved := 0
	for cursor := ""; ; {
		var page struct {
			Attempts   []attemptJSON `json:"attempts"`
			NextCursor *string       `json:"next_cursor"`
		}
		pl.c.json(http.MethodGet, "/api/me/attempts?limit=100"+cursor, "", http.StatusOK, &page)
		for _, a := range page.Attempts {
			got[a.ID] = a.Outcome
			if a.Outcome == "solved" {
				solved++
			}
		}
		if page.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	for id, outcome := range pl.finished {
		if got[id] != outcome {
			t.Errorf("acknowledged attempt %d (%s) reads %q after the kill", id, outcome, got[id])
		}
	}
	var me playerJSON
	pl.c.json(http.MethodGet, "/api/me", "", http.StatusOK, &me)
	if int(me.Solved) != solved || int(me.Attempts) != len(got) || solved < pl.solved {
		t.Errorf("player %d counts %d solved of %d attempts; the attempts say %d of %d (%d acknowledged solves)", me.ID, me.Solved, me.Attempts, solved, len(got), pl.solved)
	}
}
