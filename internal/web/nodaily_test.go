package web

import (
	"log/slog"
	"net/http"
	"testing"
)

// TestNoDailyServerChoosesWhenAsked: a server that leaves choosing the
// puzzles of the day ahead to another (NoDaily) answers today's puzzle
// when asked, choosing it itself, instead of "being chosen" (503) for as
// long as nobody asks the server that chooses ahead.
func TestNoDailyServerChoosesWhenAsked(t *testing.T) {
	arch := &fakeArchive{}
	s := New(partsOf(arch), Config{Logger: slog.New(slog.DiscardHandler), NoDaily: true})
	addr, stop := startServer(t, s)
	defer stop()
	arch.mu.Lock()
	n := len(arch.puzzles)
	arch.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d puzzles archived before anyone asked for the puzzle of the day", n)
	}
	res, err := http.Get("http://" + addr + "/api/daily")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /api/daily from a --daily=false server: %d, want 200", res.StatusCode)
	}
}
