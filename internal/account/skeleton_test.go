package account

import (
	"errors"
	"testing"
)

// TestSkeletonLookalikes holds the look-alikes of issue 45 and others the
// rule means to catch, each pair one skeleton.
func TestSkeletonLookalikes(t *testing.T) {
	pairs := [][2]string{
		{"сосо", "coco"},         // Cyrillic es and o
		{"аррӏе", "apple"},       // Cyrillic a, er, palochka, ie
		{"АРРӀЕ", "apple"},       // the same in capitals
		{"ısmail", "ismail"},     // Turkish dotless i
		{"STRASSE", "straße"},    // full case folding: ß is ss
		{"Emile", "Еmile"},       // Cyrillic capital Ie
		{"c0c0", "coco"},         // a digit zero, O after folding
		{"paypal", "ρaypal"},     // Greek rho
		{"ＡＬＩＣＥ", "alice"},       // full width (the key folds it)
		{"warning", "waming"},    // rn and m
		{"ΣΑΣ", "σας"},           // final sigma
		{"Ｓｕｄｏｋｕ", "sudoku"},     // full width
		{"émile", "e\u0301mile"}, // composed and combining
	}
	for _, p := range pairs {
		a, b := NameSkeleton(p[0]), NameSkeleton(p[1])
		if a != b {
			t.Errorf("NameSkeleton(%q) = %q, NameSkeleton(%q) = %q: want one skeleton", p[0], a, p[1], b)
		}
	}
	if a, b := CollectionSkeleton("Classic  Puzzles"), CollectionSkeleton("Сlassic Puzzles"); a != b {
		t.Errorf("collections: %q and %q differ; want one skeleton (Cyrillic Es, spaces collapsed)", a, b)
	}
}

// TestSkeletonDistinct holds names the rule must keep apart: different
// letters, and the one limit of folding first (a capital I is an i).
func TestSkeletonDistinct(t *testing.T) {
	pairs := [][2]string{
		{"coco", "cocoa"},
		{"anna", "anne"},
		{"émile", "emile"}, // an accent is a letter of its own
		{"Ismail", "lsmail"},
		{"марк", "mark"}, // Cyrillic em and ka look like no Latin lower case
		{"ivan", "иван"},
	}
	for _, p := range pairs {
		if a, b := NameSkeleton(p[0]), NameSkeleton(p[1]); a == b {
			t.Errorf("NameSkeleton(%q) = NameSkeleton(%q) = %q: want two", p[0], p[1], a)
		}
	}
}

// TestSkeletonStable: a skeleton is its own skeleton (the rounds reach a
// fixed point), and default-ignorable characters count for nothing.
func TestSkeletonStable(t *testing.T) {
	for _, s := range []string{"coco", "сосо", "STRASSE", "c0c0", "ǅemal", "ﬁnn", "ℌello", "ǈ"} {
		k := Skeleton(s)
		if again := Skeleton(k); again != k {
			t.Errorf("Skeleton(%q) = %q, and its skeleton is %q: want a fixed point", s, k, again)
		}
	}
	if a, b := Skeleton("co\u00adco\u200b"), Skeleton("coco"); a != b {
		t.Errorf("a soft hyphen and a zero-width space change the skeleton: %q, %q", a, b)
	}
	if defaultIgnorable(' ') || defaultIgnorable('a') || !defaultIgnorable('\u200d') || defaultIgnorable('\u0600') {
		t.Error("defaultIgnorable misreads space, a, ZWJ or the Arabic number sign")
	}
}

// TestLookalikeError: the error names both names and is ErrNameLookalike.
func TestLookalikeError(t *testing.T) {
	err := error(&LookalikeError{Name: "сосо", Existing: "coco", Of: "account"})
	if !errors.Is(err, ErrNameLookalike) {
		t.Error("a LookalikeError is not ErrNameLookalike")
	}
	want := `the name "сосо" looks like the name "coco" of an existing account (the same letters to the eye): choose another`
	if err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// BenchmarkNameSkeleton measures a name's skeleton (its key, then the
// rounds), the cost each new name pays once.
func BenchmarkNameSkeleton(b *testing.B) {
	names := []string{"coco", "сосо", "STRASSE", "émile_42", "ＡＬＩＣＥ", "c0c0"}
	for i := 0; b.Loop(); i++ {
		NameSkeleton(names[i%len(names)])
	}
}
