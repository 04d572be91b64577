package main

import (
	"context"
	"flag"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

var crashRounds = flag.Int("crash.rounds", 3, "TestCrash*: how many times to kill -9 the process")

// TestCrashServe builds the real binary, runs `sudoku serve` as a subprocess
// under several submitting clients and kills it with SIGKILL at a random
// moment, several times over the same database file. Each restart must come
// up without repair, PRAGMA integrity_check must say ok, the running totals
// must agree with the rows, and every acknowledged (201 or 200) submission
// must be there: per puzzle at least the acknowledged count, at most that
// plus the requests whose answer the kill cut off.
//
//	go test ./cmd/sudoku -run TestCrashServe -v -crash.rounds=20
func TestCrashServe(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped with -short")
	}
	bin := buildBinary(t)
	dbPath := filepath.Join(t.TempDir(), "sudoku.db")
	src := newPuzzleSource(t)
	tl := newTally()
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)

	for round := 0; ; round++ {
		p := startProc(t, bin, dbPath, "--rate-limit", "0")
		if res, err := http.Get(p.url + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("round %d: healthz after restart: %v %v\n%s", round, res, err, p.logs)
		}
		if round > 0 {
			// The server recovered the file on its own; now look at it.
			got := inspect(t, dbPath)
			checkAcknowledged(t, got, tl)
			if round == *crashRounds {
				logCrashTotals(t, tl, got, round)
			}
			if t.Failed() {
				t.Fatalf("after kill %d", round)
			}
		}
		if round == *crashRounds {
			stopCleanly(t, p, round) // the last start: a clean stop must still work
			break
		}

		before, _ := tl.total()
		wait := 150*time.Millisecond + time.Duration(rng.Int64N(int64(700*time.Millisecond)))
		submitUntilKilled(t, p, src, tl, wait, func(c int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(round*100+c))) })
		after, subs := tl.total()
		t.Logf("round %d: killed after %s; %d new puzzles acknowledged (%d acknowledged submissions in all)",
			round+1, wait.Round(time.Millisecond), after-before, subs)
		if after == before {
			t.Errorf("round %d: nothing acknowledged before the kill", round+1)
		}
	}
}

// submitUntilKilled runs eight clients against p, 70% new puzzles and the
// rest repeats (client c drawing from rng(c)), counting answers in tl,
// and kills p after wait.
func submitUntilKilled(t *testing.T, p *proc, src *puzzleSource, tl *tally, wait time.Duration, rng func(c int) *rand.Rand) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			crng := rng(c)
			client := &http.Client{Timeout: 10 * time.Second}
			for ctx.Err() == nil {
				pz, _ := tl.pick(crng.Uint64())
				if pz == "" || crng.IntN(10) < 7 {
					pz = src.next()
				}
				res, err := submit(ctx, client, p.url, pz)
				tl.record(t, pz, res, err)
			}
		})
	}
	time.Sleep(wait)
	p.kill()
	cancel()
	wg.Wait()
}

// logCrashTotals logs, after the last kill, what the database at the end
// (got) holds against what was acknowledged and left unanswered.
func logCrashTotals(t *testing.T, tl *tally, got map[string]int64, round int) {
	t.Helper()
	tl.mu.Lock()
	var acked, cut, extra int64
	for p, n := range tl.acked {
		acked += n
		extra += got[p] - n
	}
	for p, n := range tl.unknown {
		cut += n
		if tl.acked[p] == 0 {
			extra += got[p]
		}
	}
	tl.mu.Unlock()
	t.Logf("after %d kills: %d puzzles stored; all %d acknowledged submissions present; of %d requests left unanswered by a kill (cut off or refused), %d were committed",
		round, len(got), acked, cut, extra)
}

// stopCleanly stops p with SIGTERM after round kills: it must exit 0.
func stopCleanly(t *testing.T, p *proc, round int) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("serve after %d kills exited with %v on SIGTERM\n%s", round, err, p.logs)
		}
		p.done <- nil
	case <-time.After(30 * time.Second):
		t.Error("serve did not stop on SIGTERM")
	}
}
