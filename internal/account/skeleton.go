package account

// skeleton.go is the look-alike rule of names (issue 45; docs/players.md
// "Look-alike names"): two names that a reader cannot tell apart are one
// name to a newcomer. `сосо` (Cyrillic) beside `coco`, `аррӏе` beside
// `apple`, `ısmail` beside `ismail`, `STRASSE` beside `straße` were
// separate accounts, and a Cyrillic `Е` made a collection that displayed
// like another's. A name is compared for this by its skeleton, stored
// beside its key (migration 00025, not unique: look-alikes made before
// the rule keep working), and a new name whose skeleton another name has
// is refused with a LookalikeError.
//
// The skeleton is Unicode TS #39's (section 4, Confusable Detection) made
// case-blind: starting from the name's key (NameKey, CollectionKey),
//
//  1. full Unicode case folding (golang.org/x/text/cases.Fold: `STRASSE`
//     and `straße` are both `strasse`, `ΣΑΣ` is `σασ`),
//  2. Default_Ignorable_Code_Point characters removed (UTS #39 since
//     Unicode 15.1; the text rule refuses most of them already),
//  3. the skeleton proper: normalisation form D, each character replaced
//     by its prototype in Unicode's confusables.txt (github.com/mtibben/
//     confusables, the table of Unicode 13.0: `с`→`c`, `ı`→`i`, `0`→`O`,
//     `m`→`rn`), form D again,
//
// repeated until nothing changes (at most four rounds), because the
// table's prototypes are not all lower case (`0`→`O`, folded to `o` in the
// next round: `c0c0` is `coco`). One change to the table: the small
// Cyrillic palochka `ӏ` is `l` where Unicode's table says `i`, since it is
// drawn as an undotted stroke, like `l` (the capital `Ӏ` is `l` in the
// table, and folds to the small one).
//
// Folding first is what makes the rule case-blind, like the names' keys;
// its price is that a capital `I` is compared as `i`, not as the `l` it
// resembles: `Ismail` and `lsmail` are two names (in lower case, as the
// names' keys compare them, they do not look alike).

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
)

// ErrNameLookalike is what a LookalikeError is: a new name that looks
// like one in use.
var ErrNameLookalike = errors.New("that name looks like one in use")

// LookalikeError refuses a new name (an account's or a collection's)
// whose skeleton another's has: Name is the name asked for, Existing the
// name it looks like, Of what Existing names ("account", "collection").
type LookalikeError struct {
	Name, Existing, Of string
}

func (e *LookalikeError) Error() string {
	return fmt.Sprintf("the name %q looks like the name %q of an existing %s (the same letters to the eye): choose another", clip(e.Name), clip(e.Existing), e.Of)
}

// Unwrap makes a LookalikeError ErrNameLookalike to errors.Is.
func (e *LookalikeError) Unwrap() error { return ErrNameLookalike }

// NameSkeleton is the skeleton of a player's name: the look-alike key of
// NameKey(name). Names with one key have one skeleton.
func NameSkeleton(name string) string { return Skeleton(NameKey(name)) }

// CollectionSkeleton is the skeleton of a collection's name: the
// look-alike key of CollectionKey(name).
func CollectionSkeleton(name string) string { return Skeleton(CollectionKey(name)) }

// maxRounds bounds Skeleton's rounds: every name met so far is stable
// after two.
const maxRounds = 4

// fold is full Unicode case folding; a Caser that folds holds no state
// between strings, so one serves every goroutine.
var fold = cases.Fold()

// Skeleton is the case-blind UTS #39 skeleton of s (the file's comment
// says each step): two texts look alike when their skeletons are equal.
// It is a key to compare, never a text to show.
func Skeleton(s string) string {
	for range maxRounds {
		next := confusables.Skeleton(strings.Map(prototype, fold.String(s)))
		if next == s {
			break
		}
		s = next
	}
	return s
}

// prototype drops the default-ignorable characters and maps the
// characters where this rule departs from Unicode's table, before the
// table's mapping.
func prototype(r rune) rune {
	switch {
	case r == 'ӏ': // U+04CF CYRILLIC SMALL LETTER PALOCHKA: the table says i
		return 'l'
	case defaultIgnorable(r):
		return -1
	}
	return r
}

// defaultIgnorable reports whether r is a Default_Ignorable_Code_Point,
// derived as DerivedCoreProperties.txt derives it (the unicode package
// has its parts, not the property): Other_Default_Ignorable_Code_Point,
// format characters and variation selectors, but not white space, the
// interlinear annotation and Egyptian hieroglyph format characters, nor
// the prepended concatenation marks, which are visible.
func defaultIgnorable(r rune) bool {
	if r < 0xAD {
		return false // nothing in ASCII and Latin-1 below the soft hyphen
	}
	if unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) {
		return true
	}
	return unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.White_Space, r) &&
		(r < 0xFFF9 || r > 0xFFFB) && (r < 0x13430 || r > 0x1343F) &&
		!unicode.Is(unicode.Prepended_Concatenation_Mark, r)
}
