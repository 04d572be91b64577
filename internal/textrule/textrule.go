// Package textrule is the one rule for every text that enters the archive
// from outside (player names, technique names of a finish, moderators'
// reasons and flags' texts, collections' names and credits, the lines of an
// attempts import): checked once, before the text reaches a database
// transaction, so that no text can fail a group commit that carries other
// players' requests (issue 45: a NUL in a technique name failed every
// finish of its group on PostgreSQL, which refuses NUL in text).
//
// A text is valid UTF-8 within a length in characters (runes) and in bytes
// (what an index row holds: PostgreSQL refuses a B-tree row over about
// 2,700 bytes), and holds none of the characters that are not text where
// they stand: NUL and the other C0 and C1 control characters (line breaks
// and tabs allowed where a Rule says Lines), DEL, the bidirectional
// formatting characters (which make a name display as another), and the
// zero-width characters (a zero-width space, word joiner or byte order
// mark anywhere; a zero-width joiner or non-joiner only between two
// characters of a word, where Persian, the Indic scripts and emoji
// sequences need them).
//
// The package imports nothing of the module: each domain wraps the Error
// in its own error type and kind (a 400 or a 422, an exit status 2).
package textrule

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// A Rule is the limits of one field.
type Rule struct {
	// MaxRunes and MaxBytes bound the text's length in characters and in
	// bytes (0: MaxBytes is 4 * MaxRunes).
	MaxRunes, MaxBytes int
	// Lines allows line breaks and tabs (a description, a reason).
	Lines bool
}

// Error is a text that breaks its Rule: Field names it, Msg says what is
// wrong, for users.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return fmt.Sprintf("%q %s", e.Field, e.Msg) }

// Check reports whether s, the text of field, keeps r: nil, or an *Error
// naming the field and what is wrong (the first offending character by
// its code point and place).
func Check(field, s string, r Rule) error {
	if !utf8.ValidString(s) {
		return &Error{field, "is not valid UTF-8"}
	}
	maxBytes := r.MaxBytes
	if maxBytes == 0 {
		maxBytes = 4 * r.MaxRunes
	}
	if n := utf8.RuneCountInString(s); n > r.MaxRunes {
		return &Error{field, fmt.Sprintf("has %d characters: at most %d", n, r.MaxRunes)}
	}
	if len(s) > maxBytes {
		return &Error{field, fmt.Sprintf("has %d bytes in UTF-8: at most %d", len(s), maxBytes)}
	}
	prev, pos := rune(-1), 0
	for i, c := range s {
		pos++
		if what := notText(c, r.Lines); what != "" {
			return badChar(field, what, c, pos)
		}
		if c == zwnj || c == zwj {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(c):])
			if !wordChar(prev) || i+utf8.RuneLen(c) == len(s) || !wordChar(next) {
				return badChar(field, "a zero-width joiner outside a word", c, pos)
			}
		}
		prev = c
	}
	return nil
}

// Zero-width (non-)joiner: text inside a word, a trap elsewhere.
const (
	zwnj = '\u200C'
	zwj  = '\u200D'
)

func badChar(field, what string, c rune, pos int) error {
	return &Error{field, fmt.Sprintf("has %s (U+%04X) at position %d", what, c, pos)}
}

// notText names what c is when it is never text in a field of the rule,
// "" when it may be.
func notText(c rune, lines bool) string {
	switch {
	case c == 0:
		return "a NUL character"
	case c == '\n' || c == '\r' || c == '\t':
		if lines {
			return ""
		}
		return "a line break or tab"
	case c < 0x20 || c == 0x7f:
		return "a control character"
	case c >= 0x80 && c <= 0x9f:
		return "a C1 control character"
	case c == '\u061C' || c == '\u200E' || c == '\u200F' || c >= '\u202A' && c <= '\u202E' || c >= '\u2066' && c <= '\u2069':
		return "a bidirectional formatting character"
	case c == '\u200B' || c == '\u2060' || c == '\uFEFF' || c == '\u180E':
		return "a zero-width character"
	case c == '\u2028' || c == '\u2029':
		if lines {
			return ""
		}
		return "a line break or tab"
	}
	return ""
}

// wordChar reports whether c can stand beside a zero-width joiner: a
// letter, a mark, a digit or a symbol (emoji), not a space, punctuation or
// another format character.
func wordChar(c rune) bool {
	return c >= 0 && (unicode.IsLetter(c) || unicode.IsMark(c) || unicode.IsDigit(c) || unicode.IsSymbol(c) || c == '\uFE0F')
}
