// Package moderation holds the domain of keeping the archive clean
// (docs/moderation.md): players' flags on puzzles, hidden puzzles,
// and the audit trail of every moderation act, role change, token issued
// and account deleted. Plain values and their rules: no SQL, no HTTP. The
// store keeps them (internal/store/moderation.go, audit.go); the server
// checks who may act (web.need) and turns requests into calls.
package moderation

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/textrule"
)

// Reason is why a player flags a puzzle.
type Reason string

// The reasons a flag may give.
const (
	ReasonWrong     Reason = "wrong"
	ReasonDuplicate Reason = "duplicate"
	ReasonOffensive Reason = "offensive"
	ReasonCopyright Reason = "copyright"
	ReasonOther     Reason = "other"
)

// Reasons lists the flag reasons, in the order forms offer them.
var Reasons = []Reason{ReasonWrong, ReasonDuplicate, ReasonOffensive, ReasonCopyright, ReasonOther}

// ParseReason returns the flag reason named s, or an error naming them.
func ParseReason(s string) (Reason, error) {
	for _, r := range Reasons {
		if string(r) == s {
			return r, nil
		}
	}
	return "", &InputError{Field: "reason", Msg: fmt.Sprintf("unknown reason %q: use wrong, duplicate, offensive, copyright or other", s)}
}

// Limits of the texts people write.
const (
	// MaxFlagText is the longest text of a flag, in characters.
	MaxFlagText = 1000
	// MaxReason is the longest reason of a hide, restore, dismissal or
	// deletion, in characters.
	MaxReason = 500
)

// CheckText checks a text people write (a flag's text, a moderator's
// reason) by the one text rule (textrule): valid UTF-8, at most limit
// characters, nothing that is not text but new lines and tabs. field names it in the error.
func CheckText(field, s string, limit int) error {
	if err := textrule.Check(field, s, textrule.Rule{MaxRunes: limit, Lines: true}); err != nil {
		return &InputError{Field: field, Msg: err.Error()}
	}
	return nil
}

// CheckReason checks a moderator's reason for hiding: required (a
// hidden puzzle's resubmission is answered with it), trimmed, within
// MaxReason.
func CheckReason(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", &InputError{Field: "reason", Msg: `"reason" is required: say why, it is shown to whoever submits these givens again`}
	}
	return s, CheckText("reason", s, MaxReason)
}

// InputError is a field of a request that breaks the rules above: the
// server answers it 400 (KindInvalid), the command line exits 2.
type InputError struct {
	Field string
	Msg   string
}

func (e *InputError) Error() string { return e.Msg }

// Kind classifies the error for record.KindOf.
func (e *InputError) Kind() record.Kind { return record.KindInvalid }

// Status is where a flag stands.
type Status string

// The states of a flag: open until a moderator hides the puzzle or
// dismisses its flags.
const (
	StatusOpen      Status = "open"
	StatusHidden    Status = "hidden"
	StatusDismissed Status = "dismissed"
)

// Flag is one player's report of one puzzle.
type Flag struct {
	ID         int64     `json:"id"`
	PuzzleID   int64     `json:"puzzle_id"`
	PlayerID   int64     `json:"player_id"`
	PlayerName string    `json:"player_name"` // "" for an anonymous player
	Reason     Reason    `json:"reason"`
	Text       string    `json:"text"`
	CreatedAt  time.Time `json:"created_at"`
	Status     Status    `json:"status"`
	ResolvedBy int64     `json:"resolved_by,omitzero"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
}

// Flagged is one entry of the moderators' queue: a visible puzzle with
// open flags, and those flags, oldest first.
type Flagged struct {
	Puzzle record.Puzzle `json:"puzzle"`
	Flags  []Flag        `json:"flags"`
}

// Hidden says who hid a puzzle, when and why.
type Hidden struct {
	PuzzleID int64     `json:"puzzle_id"`
	By       int64     `json:"by,omitzero"` // 0: the command line
	ByName   string    `json:"by_name"`
	At       time.Time `json:"at"`
	Reason   string    `json:"reason"`
}

// Via is where an act came from.
type Via string

// Where acts come from.
const (
	ViaAPI  Via = "api"
	ViaPage Via = "page"
	ViaCLI  Via = "cli"
)

// Actor is who acts: a player (ID, Name as it is now) through the API or a
// page, or whoever runs the command line (ID 0).
type Actor struct {
	ID   int64  `json:"id,omitzero"`
	Name string `json:"name"`
	Via  Via    `json:"via"`
}

// CLI is the actor of `sudoku` commands: whoever can open the database.
func CLI() Actor { return Actor{Name: "command line", Via: ViaCLI} }

// Action is what an audit entry records.
type Action string

// The acts the audit trail records.
const (
	ActionHide          Action = "hide"           // a puzzle hidden (PuzzleID, Reason)
	ActionRestore       Action = "restore"        // a hidden puzzle restored
	ActionDelete        Action = "delete"         // a puzzle deleted with its attempts and flags
	ActionDismiss       Action = "dismiss"        // a puzzle's open flags dismissed (Detail: how many)
	ActionRole          Action = "role"           // a player's role changed (Detail: "old -> new")
	ActionUserAdd       Action = "user_add"       // an account made by the command line (Detail: its role)
	ActionToken         Action = "token"          // an API token issued
	ActionAccountDelete Action = "account_delete" // a player deleted with their history
	ActionTokenRevoke   Action = "token_revoke"   // an API token revoked (Detail: its id)
	ActionRename        Action = "rename"         // a name renamed by migration 00018: one with an older name's key (Detail: "old -> new")
	ActionPrune         Action = "players_prune"  // anonymous players long unseen deleted with their history (Detail: how many, since when)
	// A collection's owner, a moderator or an admin changed it (Detail
	// names the collection: "collection 3 \"Best\"").
	ActionCollectionEdit   Action = "collection_edit"   // its texts changed (Detail: the new name too when renamed)
	ActionCollectionRemove Action = "collection_remove" // a puzzle taken out of it (PuzzleID); the puzzle stays archived
	ActionCollectionDelete Action = "collection_delete" // deleted; its puzzles stay archived
)

// Entry is one line of the audit trail. Entries are only ever added.
type Entry struct {
	ID         int64     `json:"id"`
	At         time.Time `json:"at"`
	Actor      Actor     `json:"actor"`
	Action     Action    `json:"action"`
	PuzzleID   int64     `json:"puzzle_id,omitzero"`
	PlayerID   int64     `json:"player_id,omitzero"`
	PlayerName string    `json:"player_name,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Detail     string    `json:"detail,omitempty"`
}

// MaxAuditPage is the most entries one page of the trail holds.
const MaxAuditPage = 500

// Errors of moderation: the server answers them 409 (KindConflict) or 404.
var (
	// ErrFlagged: the player has flagged this puzzle already.
	ErrFlagged = conflict("you have flagged this puzzle already: a player flags a puzzle once")
	// ErrAlreadyHidden: hiding a hidden puzzle.
	ErrAlreadyHidden = conflict("the puzzle is hidden already")
	// ErrNotHidden: restoring a puzzle that is not hidden.
	ErrNotHidden = conflict("the puzzle is not hidden")
	// ErrNoOpenFlags: dismissing the flags of a puzzle that has none open.
	ErrNoOpenFlags = conflict("the puzzle has no open flags")
)

type conflictError string

func (e conflictError) Error() string     { return string(e) }
func (e conflictError) Kind() record.Kind { return record.KindConflict }

func conflict(msg string) error { return conflictError(msg) }

// HiddenError refuses a submission of the givens of a hidden puzzle,
// written any way (the canonical form decides): 409 with the reason.
type HiddenError struct {
	PuzzleID int64
	Reason   string
}

func (e *HiddenError) Error() string {
	return fmt.Sprintf("these givens are puzzle %d, which a moderator has hidden: %s", e.PuzzleID, e.Reason)
}

// Kind classifies the error for record.KindOf.
func (e *HiddenError) Kind() record.Kind { return record.KindConflict }

// IsHidden reports whether err refuses a hidden puzzle's givens.
func IsHidden(err error) bool {
	var h *HiddenError
	return errors.As(err, &h)
}

// ForUsers says the errors' own texts are meant for users, however deep
// they are wrapped (record.ForUsers).
func (e *InputError) ForUsers() bool   { return true }
func (e conflictError) ForUsers() bool { return true }

// ForUsers says the error's own text is meant for users.
func (e *HiddenError) ForUsers() bool { return true }

// HiddenSet is the hidden puzzles by class key (their canonical key, or
// givens key when they have none): the import pipelines read it once
// (store.DB.HiddenClasses) and reject each line that is a way of writing
// one of them, with the reason.
type HiddenSet map[string]*HiddenError

// Of is the hidden puzzle that p is a way of writing, or nil.
func (s HiddenSet) Of(p *record.Puzzle) *HiddenError {
	if len(s) == 0 {
		return nil
	}
	if p.HasCanonical() {
		if h := s[string(p.CanonicalKey())]; h != nil {
			return h
		}
	}
	return s[string(p.GivensKey())]
}
