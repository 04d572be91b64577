package daily

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// memArchive is an in-memory Archive: the store's own daily table is
// tested in internal/store on both databases.
type memArchive struct {
	secret  []byte // nil: testSecret
	mu      sync.Mutex
	puzzles []record.Puzzle
	daily   map[string]int64
	writes  int
}

func (m *memArchive) Daily(_ context.Context, date string) (record.Puzzle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.daily[date]; ok {
		return m.puzzles[id-1], nil
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (m *memArchive) SetDaily(_ context.Context, date string, p record.Puzzle) (record.Puzzle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.writes++
	if id, ok := m.daily[date]; ok {
		return m.puzzles[id-1], nil
	}
	for _, id := range m.daily {
		if m.puzzles[id-1].Canonical == p.Canonical {
			return record.Puzzle{}, record.ErrDailyRepeat
		}
	}
	if m.daily == nil {
		m.daily = map[string]int64{}
	}
	m.daily[date] = p.ID
	return p, nil
}

// testSecret is the daily secret of a memArchive without one of its own.
var testSecret = []byte(strings.Repeat("s", SecretBytes))

func (m *memArchive) DailySecret(context.Context) ([]byte, error) {
	if m.secret != nil {
		return m.secret, nil
	}
	return testSecret, nil
}

func (m *memArchive) ByCanonical(_ context.Context, c sudoku.Grid) (record.Puzzle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.puzzles {
		if p.Canonical == c {
			return p, nil
		}
	}
	return record.Puzzle{}, record.ErrNotFound
}

func (m *memArchive) Submit(_ context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.writes++
	p.ID = int64(len(m.puzzles) + 1)
	m.puzzles = append(m.puzzles, p)
	return p, false, nil
}

// TestDistinct: the first four weeks of puzzles of the day are all
// different puzzles (no two share a canonical form), each of its band.
func TestDistinct(t *testing.T) {
	n := 28
	if testing.Short() {
		n = 8
	}
	seen := map[sudoku.Grid]string{}
	for i := range n {
		d := First.AddDate(0, 0, i)
		p, err := Puzzle(t.Context(), testSecret, d, 0)
		if err != nil {
			t.Fatal(err)
		}
		if p.Band != Band(d) {
			t.Errorf("%s: band %s, want %s", Key(d), p.Band, Band(d))
		}
		if other, ok := seen[p.Canonical]; ok {
			t.Fatalf("%s repeats the puzzle of %s", Key(d), other)
		}
		seen[p.Canonical] = Key(d)
	}
}

// TestKeeperChoosesWindow: the keeper chooses yesterday and today, each
// date once, never tomorrow (issue 34: a day's puzzle is archived when its
// day begins); two keepers over two archives of one secret choose the
// same puzzles (the date and the secret decide); a second run writes
// nothing.
func TestKeeperChoosesWindow(t *testing.T) {
	now := time.Date(2026, 3, 5, 23, 59, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a, b := &memArchive{}, &memArchive{}
	for _, m := range []*memArchive{a, b} {
		if err := (&Keeper{Archive: m, Now: clock}).ChooseWindow(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	w := Window(now)
	if len(w) != 2 || Key(w[0]) != "2026-03-04" || Key(w[len(w)-1]) != "2026-03-05" {
		t.Fatalf("window %v", w)
	}
	if _, err := a.Daily(t.Context(), "2026-03-06"); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("tomorrow is chosen (and archived) before its day: %v", err)
	}
	for _, d := range w {
		pa, err := Read(t.Context(), a, d, now)
		if err != nil {
			t.Fatalf("%s: %v", Key(d), err)
		}
		pb, _ := Read(t.Context(), b, d, now)
		if pa.Givens != pb.Givens || pa.Band != Band(d) {
			t.Errorf("%s: two keepers, %s and %s", Key(d), pa.Givens, pb.Givens)
		}
	}
	writes := a.writes
	if err := (&Keeper{Archive: a, Now: clock}).ChooseWindow(t.Context()); err != nil || a.writes != writes {
		t.Errorf("a second pass wrote %d times (%v)", a.writes-writes, err)
	}
}

// TestReadNeverChooses: Read of an unrecorded date writes nothing and says
// which case it is: in the window, not chosen yet (with a retry time);
// before it, never chosen.
func TestReadNeverChooses(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	m := &memArchive{}
	var nc *NotChosenError
	if _, err := Read(t.Context(), m, Today(now), now); !errors.As(err, &nc) || nc.RetryAfter() <= 0 {
		t.Errorf("today, not chosen: %v", err)
	}
	if _, err := Read(t.Context(), m, Today(now).AddDate(0, 0, -2), now); !errors.Is(err, ErrNoDaily) {
		t.Errorf("two days ago, never chosen: %v", err)
	}
	var ny *NotYetError
	if _, err := Read(t.Context(), m, Today(now).AddDate(0, 0, 1), now); !errors.As(err, &ny) || ny.Opens != 12*time.Hour ||
		!strings.Contains(err.Error(), "opens at 00:00 UTC, in 12 h 00 min") {
		t.Errorf("tomorrow: %v", err)
	}
	if m.writes != 0 {
		t.Errorf("Read wrote %d times", m.writes)
	}
}

func TestParseDate(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	if d, err := ParseDate("date", "", now); err != nil || Key(d) != "2026-03-05" {
		t.Errorf("empty: %v %v", d, err)
	}
	if d, err := ParseDate("date", "2026-03-06", now); err != nil || Key(d) != "2026-03-06" {
		t.Errorf("tomorrow: %v %v", d, err)
	}
	for _, bad := range []string{"2026-03-07", "2025-12-31", "2026-3-5", "yesterday", "2026-02-30"} {
		var ie *userinput.InputError
		if _, err := ParseDate("date", bad, now); !errors.As(err, &ie) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestKeeperWaitsToBeAsked: on an archive with no puzzle of the day in the
// window, Run writes nothing until Wake (an archive nobody asked for a
// daily holds only what was submitted); after Wake it chooses the window.
// On an archive that has one, Run chooses the rest at once.
func TestKeeperWaitsToBeAsked(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	chosen := func(m *memArchive) int {
		m.mu.Lock()
		defer m.mu.Unlock()
		return len(m.daily)
	}
	waitFor := func(m *memArchive, n int) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); chosen(m) < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d dates chosen, want %d", chosen(m), n)
			}
		}
	}

	idle := &memArchive{}
	k := &Keeper{Archive: idle, Now: clock}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); k.Run(ctx) }()
	time.Sleep(200 * time.Millisecond)
	if n, w := chosen(idle), idle.writes; n != 0 || w != 0 || k.Running() {
		t.Fatalf("before anyone asked: %d dates, %d writes, running %v", n, w, k.Running())
	}
	k.Wake()
	k.Wake() // a second knock never blocks
	waitFor(idle, len(Window(now)))
	cancel()
	<-done

	used := &memArchive{}
	if _, err := (&Keeper{Archive: used, Now: clock}).Choose(t.Context(), Today(now)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	go (&Keeper{Archive: used, Now: clock}).Run(ctx)
	waitFor(used, len(Window(now)))
}

// TestStartExpectsAtOnce: from the moment Start returns, a reader may
// expect the keeper (a fresh server's first request waits for it rather
// than getting a 503: issue 34), and a Wake makes it choose the window.
func TestStartExpectsAtOnce(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	m := &memArchive{}
	k := &Keeper{Archive: m, Now: func() time.Time { return now }}
	if k.Expecting() {
		t.Fatal("a keeper never started is expected")
	}
	ctx, cancel := context.WithCancel(t.Context())
	wait := k.Start(ctx)
	if !k.Expecting() {
		t.Error("not expected right after Start")
	}
	k.Wake()
	for {
		if _, err := Read(t.Context(), m, Today(now), now); err == nil {
			break
		}
		select {
		case <-t.Context().Done():
			t.Fatal("never chosen")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	wait()
	if k.Expecting() {
		t.Error("expected after it stopped")
	}
}
