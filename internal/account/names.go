package account

// names.go is the one rule for the names people type and compare: the
// names of players and of collections (docs/players.md "Names: one
// name is one account in every script"). A name is compared by its key, made here in Go and stored
// beside the name as typed (migration 00018): SQL's lower() folds ASCII
// only in SQLite and under PostgreSQL's C locale, so it never decides.
//
// A player's name is keyed by the PRECIS UsernameCaseMapped profile of
// RFC 8265 (golang.org/x/text/secure/precis): full-width forms folded to
// their usual width, letters to lower case, the whole put in Unicode
// normalisation form C. `ÉMILE`, `Émile`, `émile` (precomposed or with a
// combining accent) and `ＥＭＩＬＥ` have the one key `émile`; beyond the
// profile, Greek's final sigma ς is keyed as σ. A
// collection's name, free text with spaces, is keyed by the Nickname
// profile of RFC 8266 (spaces trimmed and collapsed, compatibility forms
// folded, case ignored).

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"

	"github.com/sudoku-archive/sudoku/internal/textrule"
)

// CheckName reports whether name may be given to a new player (signup,
// `sudoku user add`, an attempts import): 2 to MaxName characters, each a
// letter (with its accents), a digit, '-', '_' or '.'; accepted by the
// PRECIS UsernameCaseMapped profile; and its letters of one script
// (Latin, Cyrillic, Greek, Arabic, ...), digits and '-', '_', '.' aside.
// Japanese names may mix Han, Hiragana and Katakana, Chinese names Han and
// Bopomofo, Korean names Han and Hangul (Unicode TS #39's "highly
// restrictive" level), as those languages write one name so. The errors
// wrap ErrBadName and say why.
func CheckName(name string) error {
	if err := textrule.Check("name", name, loginRule); err != nil {
		return fmt.Errorf("%w: %w", ErrBadName, err)
	}
	shown := DisplayName(name)
	n := utf8.RuneCountInString(shown)
	if n < 2 || n > MaxName {
		return fmt.Errorf("%w: a name has 2 to %d characters", ErrBadName, MaxName)
	}
	for i, r := range []rune(shown) {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' || i > 0 && unicode.Is(unicode.M, r)
		if !ok {
			return fmt.Errorf("%w: a name has only letters, digits, '-', '_' and '.'", ErrBadName)
		}
	}
	if _, err := precis.UsernameCaseMapped.String(name); err != nil {
		return fmt.Errorf("%w: %q is not allowed in a user name by RFC 8265 (PRECIS)", ErrBadName, clip(name))
	}
	return checkScripts(shown)
}

// loginRule is the text rule of a name typed at login, and the first
// check of a new name (whose length CheckName then bounds by MaxName): as lenient as
// older versions' names need (a name renamed with a suffix, a name made
// before the rule), yet short enough for the throttle's index and free of
// what is not text.
var loginRule = textrule.Rule{MaxRunes: 4 * MaxName, MaxBytes: 4 * MaxNameBytes}

// CheckLoginName reports whether name, typed at login, can be any
// player's name: the text rule (textrule) within loginRule's lengths. A
// name it refuses is answered 400 before it reaches the database (the
// login throttle records every name tried, in an index). The error wraps
// ErrBadName.
func CheckLoginName(name string) error {
	if err := textrule.Check("name", name, loginRule); err != nil {
		return fmt.Errorf("%w: %w", ErrBadName, err)
	}
	return nil
}

// NameKey is the key a player's name is compared by, unique among players
// and what the login throttle counts by: the PRECIS UsernameCaseMapped
// form of name. A name the profile refuses (one CheckName would refuse,
// or one an older version accepted) is keyed by its lower case in
// normalisation form C, so that every stored name has a key and the same
// typed name finds it again.
func NameKey(name string) string {
	if k, err := precis.UsernameCaseMapped.String(name); err == nil {
		// Greek's final sigma is a sigma: ΣΑΣ and σας are one name.
		return strings.ReplaceAll(k, "ς", "σ")
	}
	return norm.NFC.String(strings.ToLower(norm.NFC.String(name)))
}

// DisplayName is name as it is stored and shown: its PRECIS
// UsernameCasePreserved form (full-width letters folded, normalisation
// form C), case kept; name itself when the profile refuses it.
func DisplayName(name string) string {
	if s, err := precis.UsernameCasePreserved.String(name); err == nil {
		return s
	}
	return name
}

// CollectionKey is the key a collection's name is compared by, unique
// among collections: its PRECIS Nickname comparison key (RFC 8266: spaces
// of every kind made one and trimmed, compatibility forms folded, lower
// case). A name the profile refuses (an unassigned or disallowed
// character) is keyed by its lower case in normalisation form KC.
func CollectionKey(name string) string {
	if k, err := precis.Nickname.CompareKey(name); err == nil {
		return k
	}
	return norm.NFKC.String(strings.ToLower(strings.Join(strings.Fields(name), " ")))
}

// checkScripts fails when the letters of name come from more than one
// script (and not one of the combinations CheckName allows), naming two
// of them.
func checkScripts(name string) error {
	var seen []string
	var first rune
	for _, r := range name {
		sc := scriptOf(r)
		if sc == "" || slices.Contains(seen, sc) {
			continue
		}
		if len(seen) == 0 {
			first = r
		}
		seen = append(seen, sc)
		if !oneWritingSystem(seen) {
			return fmt.Errorf("%w: a name's letters come from one script, but %q is %s and %q is %s", ErrBadName, first, seen[0], r, sc)
		}
	}
	return nil
}

// writingSystems are the sets of scripts that one language writes one
// name in: what Unicode TS #39 ("highly restrictive") allows together.
var writingSystems = [][]string{
	{"Han", "Hiragana", "Katakana"},
	{"Han", "Bopomofo"},
	{"Han", "Hangul"},
}

// oneWritingSystem reports whether the scripts seen make one script or one
// of writingSystems.
func oneWritingSystem(seen []string) bool {
	if len(seen) <= 1 {
		return true
	}
	for _, ws := range writingSystems {
		all := true
		for _, s := range seen {
			all = all && slices.Contains(ws, s)
		}
		if all {
			return true
		}
	}
	return false
}

// A script is one of Unicode's scripts and its characters.
type script struct {
	name  string
	table *unicode.RangeTable
}

// scripts are Unicode's scripts but Common and Inherited, the common ones
// first: most names are found in the first table.
var scripts = sync.OnceValue(func() []script {
	var out []script
	for name, t := range unicode.Scripts {
		if name != "Common" && name != "Inherited" {
			out = append(out, script{name, t})
		}
	}
	slices.SortFunc(out, func(a, b script) int { return strings.Compare(rankScript(a.name), rankScript(b.name)) })
	return out
})

// rankScript sorts Latin, Cyrillic and Greek first, then by name.
func rankScript(name string) string {
	switch name {
	case "Latin":
		return "0"
	case "Cyrillic":
		return "1"
	case "Greek":
		return "2"
	}
	return "3" + name
}

// scriptOf returns the script of r, "" for Common and Inherited
// characters (digits 0-9, '-', '_', '.', combining accents): those belong
// to every script.
func scriptOf(r rune) string {
	if r < 0x80 && !unicode.IsLetter(r) {
		return ""
	}
	for _, s := range scripts() {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	return ""
}
