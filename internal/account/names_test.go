package account

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestNameKey: the spellings of one name (case, width, composition, the
// final sigma) have one key, on every script; different names keep
// different keys.
func TestNameKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"ÉMILE", "émile"}, {"Émile", "e\u0301mile"}, {"ＥＭＩＬＥ", "emile"}, {"Ölaf", "ölaf"},
		{"ДИМА", "дима"}, {"ΣΑΣ", "σας"}, {"ANN", "ann"},
	} {
		if NameKey(tc.a) != NameKey(tc.b) {
			t.Errorf("NameKey(%q) = %q, NameKey(%q) = %q: want one key", tc.a, NameKey(tc.a), tc.b, NameKey(tc.b))
		}
	}
	for _, tc := range []struct{ a, b string }{{"émile", "emile"}, {"аdm", "adm"}, {"ann", "anne"}} {
		if NameKey(tc.a) == NameKey(tc.b) {
			t.Errorf("NameKey(%q) = NameKey(%q) = %q: want two keys", tc.a, tc.b, NameKey(tc.a))
		}
	}
	if CollectionKey("  Émile   set ") != CollectionKey("ÉMILE SET") || CollectionKey("émile set") == CollectionKey("emile set") {
		t.Errorf("CollectionKey: %q, %q", CollectionKey("  Émile   set "), CollectionKey("ÉMILE SET"))
	}
}

// TestCheckName: the characters, the length and the one-script rule, each
// refusal saying why.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
		why  string
	}{
		{"ann", true, ""}, {"Zoë_2.b-c", true, ""}, {"ÉMILE", true, ""}, {"e\u0301mile", true, ""}, {"дима", true, ""},
		{"山田たろう", true, ""}, {"김철수", true, ""}, {"Ελένη", true, ""}, {"ab12", true, ""},
		{"a", false, "2 to 32"}, {strings.Repeat("a", 33), false, "2 to 32"}, {"a b", false, "only letters"},
		{"<x>", false, "only letters"}, {"\u0301ab", false, "only letters"}, {"\xff\xfe", false, "UTF-8"},
		{"аdm", false, "one script"}, {"pаypal", false, "'а' is Cyrillic"}, {"Ωmega", false, "one script"},
		{"ﬁsh", false, "RFC 8265"}, {"a\x00b", false, "NUL"}, {strings.Repeat("a", 3000), false, "at most 128"},
	} {
		err := CheckName(tc.name)
		if (err == nil) != tc.ok || err != nil && (!errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), tc.why)) {
			t.Errorf("CheckName(%q) = %v, want ok %v (%s)", tc.name, err, tc.ok, tc.why)
		}
	}
}

// TestCheckLoginName: a name typed at login that no player can have (a
// NUL, 3,000 letters: an index row over PostgreSQL's limit) is refused
// before the database; older names, longer than MaxName, pass.
func TestCheckLoginName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"ann", true}, {strings.Repeat("é", 40), true}, {"a\x00", false}, {strings.Repeat("a", 3000), false}, {"a\u202e", false}} {
		if err := CheckLoginName(tc.name); (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrBadName) {
			t.Errorf("CheckLoginName(%.20q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// FuzzName checks the name rule: a name's key is stable (the same every
// time, and the key of its key); two accepted names with the same key are
// one name (the store's unique key refuses the second), and two spellings
// of one name (other case, decomposed) have the same key, so they can
// never be two accounts; an accepted name's key is itself accepted.
func FuzzName(f *testing.F) {
	for _, s := range []string{"ÉMILE", "émile", "аdm", "adm", "ΣΑΣ", "ＥＭＩＬＥ", "山田たろう", "a.b-c_1", "ﬁsh", "K"} {
		f.Add(s, strings.ToLower(s))
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka := NameKey(a)
		if NameKey(a) != ka {
			t.Fatalf("NameKey(%q) changed", a)
		}
		if CheckName(a) != nil {
			return
		}
		if NameKey(ka) != ka {
			t.Errorf("NameKey(NameKey(%q)) = %q, want %q", a, NameKey(ka), ka)
		}
		if err := CheckName(ka); err != nil {
			t.Errorf("the key %q of the accepted %q is refused: %v", ka, a, err)
		}
		for _, other := range []string{strings.ToUpper(a), strings.ToLower(a), norm.NFD.String(a), DisplayName(a)} {
			if CheckName(other) == nil && NameKey(other) != ka {
				t.Errorf("%q and %q are one name, keys %q and %q", a, other, ka, NameKey(other))
			}
		}
		if !utf8.ValidString(DisplayName(a)) || NameKey(DisplayName(a)) != ka {
			t.Errorf("DisplayName(%q) = %q has another key", a, DisplayName(a))
		}
		if CheckName(b) == nil && NameKey(b) == ka && !strings.EqualFold(norm.NFC.String(DisplayName(a)), norm.NFC.String(DisplayName(b))) {
			// Not an error of the rule (the store takes only the first),
			// but worth seeing: the fold goes beyond simple case folding.
			t.Logf("%q and %q share the key %q", a, b, ka)
		}
	})
}
