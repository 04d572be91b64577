package store

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// testVariantIdentity: a puzzle is its givens and its rules. The same
// variant again is a duplicate of its row; the same givens as a classic
// puzzle, or with other rules, are other puzzles; another way of writing
// it (a move of its group) is a new row of its class (same_as).
func testVariantIdentity(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	v := variantRow(t, "diagonal+-1")
	first, dup, err := db.Submit(ctx, v)
	if err != nil || dup {
		t.Fatalf("Submit: %v (duplicate %v)", err, dup)
	}
	again, dup, err := db.Submit(ctx, v)
	if err != nil || !dup || again.ID != first.ID || again.Submissions != 2 {
		t.Errorf("the same variant again: id %d (first %d), duplicate %v, %d submissions, %v", again.ID, first.ID, dup, again.Submissions, err)
	}
	classic, err := record.Rate(v.Givens, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, dup, err := db.Submit(ctx, classic)
	if err != nil || dup || c.ID == first.ID || c.SameAs != nil || c.Rules != "" {
		t.Errorf("the same givens as a classic puzzle: %+v, duplicate %v, %v; want a new row of its own", c, dup, err)
	}
	// Two killers without givens: the same (empty) givens, other rules.
	k1, k2 := variantRow(t, "killer-nogivens-1"), variantRow(t, "killer-nogivens-2")
	dups, err := db.SubmitMany(ctx, []record.Puzzle{k1, k2})
	if err != nil || dups[0] || dups[1] {
		t.Errorf("two killers without givens: duplicates %v, %v; want two new rows", dups, err)
	}
	moved := movedVariant(t, v)
	m, dup, err := db.Submit(ctx, moved)
	if err != nil || dup || m.ID == first.ID || m.SameAs == nil || *m.SameAs != first.ID {
		t.Errorf("another way of writing the variant: id %d same_as %v, duplicate %v, %v; want a new row of %d's class", m.ID, m.SameAs, dup, err, first.ID)
	}
}

// movedVariant returns v moved by a member of its group that changes its
// written form: another way of writing the same puzzle.
func movedVariant(t *testing.T, v record.Puzzle) record.Puzzle {
	t.Helper()
	vp, err := v.VariantPuzzle()
	if err != nil {
		t.Fatal(err)
	}
	geometry, _ := variant.Group(vp)
	for _, g := range geometry {
		mp := variant.Normal(variant.Apply(g, vp))
		if mp.Text() == vp.Text() {
			continue
		}
		m, err := record.RateVariant(mp, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Canonical != v.Canonical || m.CanonicalRules != v.CanonicalRules {
			t.Fatalf("moved by %v: canonical %s %.40q, want %s %.40q", g, m.Canonical, m.CanonicalRules, v.Canonical, v.CanonicalRules)
		}
		return m
	}
	t.Fatal("no move changes the puzzle")
	return record.Puzzle{}
}

// testVariantClassicKeysUnchanged: a classic row's givens_key and
// canonical_key are the grids' keys, byte for byte as before variants; a
// variant's begin with them and go on with the mark.
func testVariantClassicKeysUnchanged(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	v := variantRow(t, "x-sudoku-1")
	classic, err := record.Rate(v.Givens, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []record.Puzzle{classic, v} {
		s, _, err := db.Submit(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		var gk, ck []byte
		if err := db.reader.QueryRow(db.d.sql("SELECT givens_key, canonical_key FROM puzzles WHERE id = ?"), s.ID).Scan(&gk, &ck); err != nil {
			t.Fatal(err)
		}
		wantG, wantC := p.Givens.Key(), p.Canonical.Key()
		if p.Rules == "" && (!bytes.Equal(gk, wantG) || !bytes.Equal(ck, wantC)) {
			t.Errorf("classic keys %x %x, want the grids' %x %x", gk, ck, wantG, wantC)
		}
		if p.Rules != "" && (!bytes.HasPrefix(gk, append(wantG, record.VariantKeyMark)) || !bytes.HasPrefix(ck, append(wantC, record.VariantKeyMark)) || bytes.Equal(gk, wantG)) {
			t.Errorf("variant keys %x %x, want the grids' keys, the mark and a hash", gk, ck)
		}
	}
}

// testVariantRefused: a variant row that does not stand is refused with
// ErrInvalidPuzzle and a message that says why, and nothing is written.
func testVariantRefused(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	good := variantRow(t, "thermo-1")
	other := variantRow(t, "killer-nogivens-1")
	for _, c := range []struct {
		name, want string
		edit       func(p *record.Puzzle)
	}{
		{"rules that do not read", "rules", func(p *record.Puzzle) { p.Rules = `[{"type":"thermo"` }},
		{"an unknown rule", "rules", func(p *record.Puzzle) { p.Rules = `[{"type":"nope"}]` }},
		{"rules not in their normal writing", "normal", func(p *record.Puzzle) {
			l, _ := p.Rules.List() // in their normal order, which Reverse undoes
			slices.Reverse(l)
			p.Rules = record.RulesOf(l)
		}},
		{"no canonical rules", "canonical rules", func(p *record.Puzzle) { p.CanonicalRules = "" }},
		{"wrong variant names", "variant", func(p *record.Puzzle) { p.Variant = "killer" }},
		{"a solution that breaks the rules", "solution", func(p *record.Puzzle) {
			p.Givens, p.Rules, p.CanonicalRules, p.Variant = sudoku.Grid{}, other.Rules, other.CanonicalRules, other.Variant
			p.Canonical = sudoku.Grid{}
		}},
		{"a classic puzzle without givens", "no givens", func(p *record.Puzzle) {
			p.Givens, p.Canonical, p.Rules, p.CanonicalRules, p.Variant = sudoku.Grid{}, sudoku.Grid{}, "", "", ""
		}},
		{"a classic puzzle with variant names", "classic", func(p *record.Puzzle) { p.Rules = "" }},
	} {
		p := good
		c.edit(&p)
		_, _, err := db.Submit(ctx, p)
		if !errors.Is(err, ErrInvalidPuzzle) || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: Submit: %v, want ErrInvalidPuzzle saying %q", c.name, err, c.want)
		}
		if _, err := db.SubmitMany(ctx, []record.Puzzle{good, p}); !errors.Is(err, ErrInvalidPuzzle) {
			t.Errorf("%s: SubmitMany: %v, want ErrInvalidPuzzle", c.name, err)
		}
	}
	var n int
	if err := db.reader.QueryRow("SELECT count(*) FROM puzzles").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rows written (%v), want none", n, err)
	}
}

// testVariantCopyAndHide: a variant row copied into a new archive
// (Export, then Restore: sudoku copy's road) keeps its columns; a hidden
// variant refuses another way of writing it, and leaves the classic
// puzzle of the same givens alone.
func testVariantCopyAndHide(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	v := variantRow(t, "diagonal+-2")
	v.Title = "Copied"
	v.SetLinks()
	stored, _, err := db.Submit(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	var rows []record.Puzzle
	if err := db.Export(ctx, record.ListQuery{}, func(p record.Puzzle) error { rows = append(rows, p); return nil }); err != nil {
		t.Fatal(err)
	}
	to := bk.open(t)
	if err := to.Restore(ctx, rows); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	got, err := to.Puzzle(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkVariantRead(t, "copied row", got, v)
	if _, err := db.HidePuzzle(ctx, stored.ID, mod, "a wrong puzzle"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Submit(ctx, movedVariant(t, v)); err == nil {
		t.Error("another way of writing a hidden variant was archived")
	}
	classic, err := record.Rate(v.Givens, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Submit(ctx, classic); err != nil {
		t.Errorf("the classic puzzle of a hidden variant's givens: %v", err)
	}
}
