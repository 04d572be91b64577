package daily

import (
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestSecretDecides (issue 45): a day's puzzle comes from the archive's
// secret, so another archive's secret, or none, makes another puzzle, and
// the generator's public seeds (sudoku generate --seed) do not make it.
func TestSecretDecides(t *testing.T) {
	d := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)
	a, err := Puzzle(t.Context(), testSecret, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Puzzle(t.Context(), []byte(strings.Repeat("t", SecretBytes)), d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Canonical == b.Canonical {
		t.Error("two secrets, one puzzle")
	}
	if _, err := Puzzle(t.Context(), nil, d, 0); err == nil {
		t.Error("a puzzle of the day without the archive's secret")
	}
	// The old rule: the date's seed from a constant of the source.
	for i := range 8 {
		p, _, err := generate.Generate(t.Context(), generate.Request{
			Target: generate.Target{Band: Band(d)}, Seed: generate.SeedFor(uint64(i), day(d)), MaxCandidates: maxCandidates})
		if err == nil && p.Canonical == a.Canonical {
			t.Errorf("public seed %d makes the day's puzzle", i)
		}
	}
}

// TestNeverArchivedAlready (issue 45): a day's puzzle submitted before
// its day (somebody computed it) is not the day's: the keeper chooses the
// next attempt, fresh, and the preview shows what it will choose.
func TestNeverArchivedAlready(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	early, err := Puzzle(t.Context(), testSecret, Today(now), 0)
	if err != nil {
		t.Fatal(err)
	}
	m := &memArchive{puzzles: []record.Puzzle{early}}
	m.puzzles[0].ID = 1
	k := &Keeper{Archive: m, Now: func() time.Time { return now }}
	pre, err := k.Preview(t.Context(), Today(now))
	if err != nil {
		t.Fatal(err)
	}
	p, err := k.Choose(t.Context(), Today(now))
	if err != nil {
		t.Fatal(err)
	}
	if p.Canonical == early.Canonical || p.ID == 1 {
		t.Errorf("the day's puzzle is the one archived before its day (id %d)", p.ID)
	}
	if pre.Canonical != p.Canonical {
		t.Error("the preview is not the puzzle chosen")
	}
	if again, err := k.Choose(t.Context(), Today(now)); err != nil || again.ID != p.ID {
		t.Errorf("a date chosen changed: %d, then %d (%v)", p.ID, again.ID, err)
	}
}

// TestRuleSaidAlike: the 400 and both 404s state the one date rule.
func TestRuleSaidAlike(t *testing.T) {
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	_, bad := ParseDate("date", "2026-03-09", now)
	_, tomorrow := Read(t.Context(), &memArchive{}, Today(now).AddDate(0, 0, 1), now)
	_, none := Read(t.Context(), &memArchive{}, Today(now).AddDate(0, 0, -30), now)
	for _, err := range []error{bad, tomorrow, none} {
		if err == nil || !strings.Contains(err.Error(), Rule) {
			t.Errorf("%v: does not state the rule", err)
		}
	}
}
