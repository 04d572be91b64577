package templates

import (
	"context"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// Viewer is what the layout knows of who is looking, whatever the page:
// the server puts it in the request's context (WithViewer), so the pages'
// own views need not carry it.
type Viewer struct {
	// Moderator is a moderator or an admin: the header links to the
	// moderation pages.
	Moderator bool
	// Accounts says the server keeps players: the header offers Log in
	// and Sign up to a visitor, and Name and Log out to an account.
	Accounts bool
	// Name is the account's name ("" for a visitor or an anonymous
	// player).
	Name string
	// CSRF is the page's form token, for the header's Log out; "" on a
	// page without one (an error page), where Log out leads to /me.
	CSRF string
	// SignupsClosed is serve --signups=false: no page offers Sign up
	// (the header, the login page, /me, the accounts-only notice), since
	// /signup would only say it is closed.
	SignupsClosed bool
}

type viewerKey struct{}

// WithViewer returns ctx carrying v, for the layout.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// viewerOf returns the Viewer in ctx (the zero Viewer when there is none).
func viewerOf(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}

// NavAdmin is the header entry of the moderation pages.
const NavAdmin = "admin"

// AdminFlagsView is the moderators' queue (/admin/flags): the visible
// puzzles with open flags, oldest flag first, a page at a time.
type AdminFlagsView struct {
	CSRF    string
	Flagged []moderation.Flagged
	// Done says what the last act did ("Puzzle #12 hidden."); "" for none.
	Done string
	// Error is why an act on the puzzle ErrorFor was refused; Reason is
	// the reason the moderator typed, kept.
	Error    string
	ErrorFor int64
	Reason   string
	NextURL  string // the next page, "" on the last
	First    bool   // the first page (no after=)
	Now      time.Time
}

// errorAbove reports whether the refusal is shown above the queue: its
// puzzle is not on this page (hidden or dismissed by someone else
// meanwhile).
func (v AdminFlagsView) errorAbove() bool {
	if v.Error == "" {
		return false
	}
	for _, f := range v.Flagged {
		if f.Puzzle.ID == v.ErrorFor {
			return false
		}
	}
	return true
}

// AdminAuditView is one page of the audit trail (/admin/audit), newest
// first.
type AdminAuditView struct {
	Entries []moderation.Entry
	NextURL string // older entries, "" when there are none
	First   bool   // the newest page (no before=)
	Now     time.Time
}

// HiddenBanner is what a moderator's puzzle page says of a hidden
// puzzle, with the restore form.
type HiddenBanner struct {
	CSRF   string
	Hidden moderation.Hidden
}

// FlagForm is the "Report this puzzle" form of the puzzle page.
type FlagForm struct {
	CSRF string
	// Done: the visitor has just flagged the puzzle; Error: the flag was
	// refused (why), with the reason and text they sent kept.
	Done   bool
	Error  string
	Reason string
	Text   string
}

// flagReasonLabels names the reasons in the form.
var flagReasonLabels = map[moderation.Reason]string{
	moderation.ReasonWrong:     "Wrong (not a proper puzzle, bad data)",
	moderation.ReasonDuplicate: "A duplicate of another puzzle",
	moderation.ReasonOffensive: "Offensive",
	moderation.ReasonCopyright: "Copyright: copied without permission",
	moderation.ReasonOther:     "Something else",
}

// flagReasonLabel is a reason's label in the form and the queue.
func flagReasonLabel(r moderation.Reason) string {
	if l, ok := flagReasonLabels[r]; ok {
		return l
	}
	return string(r)
}

// flagger names who flagged: the player's name, or "an anonymous player".
func flagger(f moderation.Flag) string {
	if f.PlayerName != "" {
		return f.PlayerName
	}
	return "anonymous player #" + strconv.FormatInt(f.PlayerID, 10)
}

// actorName names who acted in the audit trail.
func actorName(a moderation.Actor) string {
	if a.Name != "" {
		return a.Name
	}
	if a.ID != 0 {
		return "player #" + strconv.FormatInt(a.ID, 10)
	}
	return string(a.Via)
}

// auditTime is an entry's time as the trail shows it, in UTC.
func auditTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// actionLabels say what each act was, in words.
var actionLabels = map[moderation.Action]string{
	moderation.ActionHide:          "hid a puzzle",
	moderation.ActionRestore:       "restored a puzzle",
	moderation.ActionDelete:        "deleted a puzzle",
	moderation.ActionDismiss:       "dismissed flags",
	moderation.ActionRole:          "changed a role",
	moderation.ActionUserAdd:       "added an account",
	moderation.ActionToken:         "issued an API token",
	moderation.ActionAccountDelete: "deleted an account",
	moderation.ActionTokenRevoke:   "revoked an API token",
	moderation.ActionRename:        "renamed a name that was one with an older one",
	moderation.ActionPrune:         "pruned anonymous players",
}

// actionLabel is an audit action in words.
func actionLabel(a moderation.Action) string {
	if l, ok := actionLabels[a]; ok {
		return l
	}
	return string(a)
}

// auditWhat is what an entry records, in words, with its detail.
func auditWhat(e moderation.Entry) string {
	if e.Detail != "" {
		return actionLabel(e.Action) + ": " + e.Detail
	}
	return actionLabel(e.Action)
}
