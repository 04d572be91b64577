package record

import "crypto/sha256"

// VariantKeyMark is the byte that follows the grid's key in a variant
// puzzle's keys (GivensKey, CanonicalKey). A grid's key (sudoku.Grid.Key)
// has the length its bitmap says, so a key with bytes past it is never a
// classic puzzle's.
const VariantKeyMark = 'V'

// variantKeyHash is how many bytes of the rules' SHA-256 a key keeps: 128
// bits, no collision in any archive.
const variantKeyHash = 16

// GivensKey is the key p's givens are unique by in the archive (the
// store's givens_key, docs/storage.md): the givens' key
// (sudoku.Grid.Key) for a classic puzzle, byte for byte as before
// variants; for a variant, followed by VariantKeyMark and a hash of the
// rules' normal writing, so the same givens with other rules are another
// puzzle.
func (p *Puzzle) GivensKey() []byte { return rulesKey(p.Givens.Key(), p.Rules) }

// CanonicalKey is the key of p's class (the store's canonical_key and the
// classes' key): the canonical form's key for a classic puzzle, followed
// for a variant by VariantKeyMark and a hash of CanonicalRules, so every
// way of writing a variant (the same canonical givens and rules) is one
// class, and none is a classic puzzle's.
func (p *Puzzle) CanonicalKey() []byte { return rulesKey(p.Canonical.Key(), p.CanonicalRules) }

// HasCanonical reports whether p has a canonical form: every variant
// (whose canonical givens may be empty: a killer without givens), and a
// classic puzzle whose Canonical is set (a row of an archive not upgraded
// yet has none).
func (p *Puzzle) HasCanonical() bool { return p.Rules != "" || p.Canonical.Clues() > 0 }

// rulesKey is key, followed for rules other than "" by the mark and their
// hash.
func rulesKey(key []byte, rules Rules) []byte {
	if rules == "" {
		return key
	}
	h := sha256.Sum256([]byte(rules))
	return append(append(key, VariantKeyMark), h[:variantKeyHash]...)
}

// VariantUngraded is the GradeVersion of a variant puzzle the archive
// holds without a grade: the human-style solver grades classic puzzles
// only (its grade of a variant would be wrong), so the store writes a
// variant row with this version and no grade (GradeStatus none), out of
// the grading queue (which takes the rows without a version) and out of a
// classic solver's regrade. A variant grader finds its rows by this
// version (docs/storage.md).
const VariantUngraded = "variant-ungraded"

// SetVariantUngraded gives a variant puzzle that has no grade version
// VariantUngraded and no grade; a classic puzzle, or a variant graded
// already, is left as it is.
func (p *Puzzle) SetVariantUngraded() {
	if p.Rules == "" || p.GradeVersion != "" {
		return
	}
	p.GradeVersion = VariantUngraded
	p.Grade, p.GradeFloor, p.Technique, p.GradeEP, p.GradeED, p.Techniques = nil, false, "", nil, nil, ""
	p.SetGradeStatus()
}
