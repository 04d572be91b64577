package record

import (
	"bytes"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestVariantKeys: a classic puzzle's keys are its grids' keys as they
// were; a variant's are them, the mark and 16 bytes of hash, other for
// other rules; SetVariantUngraded marks a variant only.
func TestVariantKeys(t *testing.T) {
	var g sudoku.Grid
	g[0], g[40] = 5, 7
	classic := Puzzle{Givens: g, Canonical: g}
	if !bytes.Equal(classic.GivensKey(), g.Key()) || !bytes.Equal(classic.CanonicalKey(), g.Key()) || !classic.HasCanonical() {
		t.Errorf("classic keys %x %x, want the grid's %x", classic.GivensKey(), classic.CanonicalKey(), g.Key())
	}
	a := Puzzle{Givens: g, Rules: `[{"type":"diagonal+"}]`, CanonicalRules: `[{"type":"diagonal-"}]`}
	b := a
	b.Rules = `[{"type":"windoku"}]`
	ka, kb := a.GivensKey(), b.GivensKey()
	if len(ka) != len(g.Key())+1+variantKeyHash || !bytes.HasPrefix(ka, append(g.Key(), VariantKeyMark)) || bytes.Equal(ka, kb) {
		t.Errorf("variant givens keys %x and %x", ka, kb)
	}
	if bytes.Equal(a.CanonicalKey(), ka) || !a.HasCanonical() {
		t.Errorf("canonical key %x hashes the rules, not the canonical rules", a.CanonicalKey())
	}
	classic.SetVariantUngraded()
	a.SetVariantUngraded()
	if classic.GradeVersion != "" || a.GradeVersion != VariantUngraded || a.GradeStatus != GradeNone {
		t.Errorf("SetVariantUngraded: classic %q, variant %q %s", classic.GradeVersion, a.GradeVersion, a.GradeStatus)
	}
	if (&Puzzle{}).HasCanonical() {
		t.Error("a puzzle without a canonical form has one")
	}
}
