// Package account is the small room of players, passwords, sessions and
// tokens: the domain types the store keeps and the server shows (Player,
// Attempt), and the secrets' handling (argon2id password hashes, random
// session and API tokens kept only as their SHA-256, compared in constant
// time). It has no SQL and no HTTP.
package account

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/sudoku-archive/sudoku/internal/textrule"
)

// techniqueRule is the text rule of a technique name a finish sends: one
// line of at most 64 bytes.
var techniqueRule = textrule.Rule{MaxRunes: 64, MaxBytes: 64}

// Role is what a player may do: every player is RolePlayer; moderators and
// admins are made with `sudoku user role`.
type Role string

// The roles, weakest first.
const (
	RolePlayer    Role = "player"
	RoleModerator Role = "moderator"
	RoleAdmin     Role = "admin"
)

// ParseRole returns the role named s, or an error naming the roles.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RolePlayer, RoleModerator, RoleAdmin:
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q: use player, moderator or admin", s)
}

// rank orders the roles.
func (r Role) rank() int {
	switch r {
	case RoleAdmin:
		return 2
	case RoleModerator:
		return 1
	}
	return 0
}

// AtLeast reports whether r may do what need allows.
func (r Role) AtLeast(need Role) bool { return r.rank() >= need.rank() }

// Player is someone who plays: anonymous (Name empty) from the first play,
// named once signed up.
type Player struct {
	ID        int64
	Name      string // "" while anonymous
	Role      Role
	Skill     float64
	CreatedAt time.Time
	// HasPassword is whether the player can log in (an account made by
	// signing up or `sudoku user add`).
	HasPassword bool
}

// Outcome is how an attempt ended, or OutcomeOpen while it runs.
type Outcome string

// The outcomes of an attempt.
const (
	OutcomeOpen   Outcome = "open"
	OutcomeSolved Outcome = "solved"
	OutcomeGaveUp Outcome = "gave_up"
)

// Attempt is one play of one puzzle by one player.
type Attempt struct {
	ID         int64
	PlayerID   int64
	PuzzleID   int64
	StartedAt  time.Time
	FinishedAt time.Time // zero while open
	Outcome    Outcome
	Seconds    int64
	Hints      int64
	Checks     int64
	Mistakes   int64
	// First is whether this is the player's first finished attempt at the
	// puzzle or at any way of writing it.
	First bool
	// Techniques names the technique of each hint taken, in order.
	Techniques []string
	// Practice: played in practice mode (Finish.Practice). Counted: the
	// players' model counted it (the first finished attempt at the class
	// not in practice; package ratings).
	Practice, Counted bool
	// SkillBefore and SkillAfter are the player's skill (the players'
	// model's, package ratings) before and after this attempt's step, when
	// Counted; 0 otherwise, and 0 wherever attempts are read back: only
	// the finish's answer carries them (its "rating 1,540 → 1,562").
	SkillBefore, SkillAfter float64
	// Grade and Technique are the puzzle's (for the dashboard); the
	// store fills them where it reads attempts with their puzzles.
	Grade     int
	Technique string
}

// Limits of what a finish may report.
const (
	// MaxSeconds is the longest attempt recorded: a week of active play.
	// A longer claim is refused (the recorded time is capped by the
	// server's clock anyway).
	MaxSeconds = 7 * 24 * 3600
	// MaxCount bounds hints, checks and mistakes.
	MaxCount = 100_000
	// MaxTechniques is how many hint techniques one finish may name.
	MaxTechniques = 1000
)

// Finish is what the player reports at the end of an attempt.
type Finish struct {
	Outcome       Outcome
	Grid          string // the 81 digits of a solved board
	ActiveSeconds int64
	Hints         int64
	Checks        int64
	Mistakes      int64
	Techniques    []string
	// Practice marks an attempt played in a practice mode whose hints
	// name the technique: it is recorded but not counted by the players'
	// model (ratings.PracticeWeight), and it still takes the player's
	// first attempt at the puzzle (who has seen it since), so a later
	// attempt is not counted either (store's decideFinish).
	Practice bool
}

// Errors of attempts; the server answers them 409, 422 and 422.
var (
	// ErrFinished: the attempt has an outcome already.
	ErrFinished = errors.New("the attempt is finished already")
	// ErrWrongGrid: a solved grid that is not the puzzle's solution.
	ErrWrongGrid = errors.New("the grid is not the puzzle's solution")
	// ErrBadFinish: a finish out of range (seconds, counts, outcome).
	ErrBadFinish = errors.New("invalid finish")
	// ErrNameTaken: signing up or renaming to a name in use.
	ErrNameTaken = errors.New("that name is taken")
	// ErrBadName: a name outside the rules of CheckName.
	ErrBadName = errors.New("invalid name")
	// ErrBadPassword: a password outside the rules of CheckPassword.
	ErrBadPassword = errors.New("invalid password")
	// ErrNoPlayer: no such player, session or token.
	ErrNoPlayer = errors.New("no such player")
)

// Check validates f, for the attempt's clock: elapsed is the server's time
// since the attempt started. It returns f with Seconds capped by elapsed.
func (f Finish) Check(elapsed time.Duration) (Finish, error) {
	switch f.Outcome {
	case OutcomeSolved, OutcomeGaveUp:
	default:
		return f, fmt.Errorf("%w: outcome must be \"solved\" or \"gave_up\"", ErrBadFinish)
	}
	if f.ActiveSeconds < 0 || f.ActiveSeconds > MaxSeconds {
		return f, fmt.Errorf("%w: active_seconds must be between 0 and %d", ErrBadFinish, MaxSeconds)
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"hints", f.Hints}, {"checks", f.Checks}, {"mistakes", f.Mistakes}} {
		if c.v < 0 || c.v > MaxCount {
			return f, fmt.Errorf("%w: %s must be between 0 and %d", ErrBadFinish, c.name, MaxCount)
		}
	}
	if err := f.CheckTexts(); err != nil {
		return f, err
	}
	if f.Outcome == OutcomeSolved && len(f.Grid) != 81 {
		return f, fmt.Errorf("%w: a solved attempt sends its grid, 81 digits", ErrBadFinish)
	}
	if secs := int64(elapsed / time.Second); f.ActiveSeconds > secs {
		f.ActiveSeconds = max(0, secs)
	}
	if int64(len(f.Techniques)) > f.Hints {
		f.Hints = int64(len(f.Techniques))
	}
	return f, nil
}

// CheckTexts checks the texts of f, its technique names, by the one text
// rule (textrule): the store calls it before a finish joins a group
// commit, so that no finish's text can fail the others'. Errors wrap
// ErrBadFinish.
func (f Finish) CheckTexts() error {
	if len(f.Techniques) > MaxTechniques {
		return fmt.Errorf("%w: at most %d techniques", ErrBadFinish, MaxTechniques)
	}
	for _, t := range f.Techniques {
		if t == "" {
			return fmt.Errorf("%w: a technique is a name of 1 to 64 characters on one line", ErrBadFinish)
		}
		if err := textrule.Check("techniques", t, techniqueRule); err != nil {
			return fmt.Errorf("%w: %w", ErrBadFinish, err)
		}
	}
	return nil
}

// Name and password rules.
const (
	MinPassword = 10
	MaxPassword = 1024
	MaxName     = 32
	// MaxNameBytes bounds a name's UTF-8 bytes (4 a character at most).
	MaxNameBytes = 4 * MaxName
)

// CheckPassword reports whether password is long enough (and not absurdly
// long: hashing has a cost).
func CheckPassword(password string) error {
	n := utf8.RuneCountInString(password)
	if n < MinPassword {
		return fmt.Errorf("%w: a password has at least %d characters", ErrBadPassword, MinPassword)
	}
	if len(password) > MaxPassword {
		return fmt.Errorf("%w: a password has at most %d bytes", ErrBadPassword, MaxPassword)
	}
	return nil
}

// Summary is a player's dashboard: counts, streak, times by grade, the
// techniques that needed hints or defeated them, and puzzles to try again.
type Summary struct {
	Attempts, Solved, GaveUp int64
	// Streak is the number of days in a row, ending today or yesterday
	// (UTC), on which the player solved that day's puzzle of the day.
	Streak     int
	ByGrade    []GradeTimes
	Techniques []TechniqueCount
	// TryAgain holds the latest attempts given up or solved with hints,
	// one per puzzle, newest first.
	TryAgain []Attempt
	// Skills is the skill each of the player's last MaxSkillPoints
	// counted attempts left, in the order they finished: the history of
	// the rating (attempts counted before the archive kept it have none).
	Skills []SkillPoint
}

// MaxSkillPoints is how many of a player's counted attempts
// Summary.Skills holds at most.
const MaxSkillPoints = 100

// SkillPoint is the skill a counted attempt left, and when it finished.
type SkillPoint struct {
	At    time.Time
	Skill float64
}

// GradeTimes sums up the player's solves of puzzles of one grade.
type GradeTimes struct {
	Grade                  int
	Solves                 int64
	Mean, Fastest, Slowest float64 // seconds
}

// TechniqueCount is how often a technique needed a hint (Hints) or was the
// hardest technique of a puzzle given up (GaveUp).
type TechniqueCount struct {
	Name          string
	Hints, GaveUp int64
}

// Export is everything stored about a player.
type Export struct {
	Player   Player
	Sessions []Dates
	Tokens   []Dates
	Attempts []Attempt
}

// Token is one API token of a player as it is listed (`sudoku user
// tokens`, /me): never the token itself, which only its owner saw once.
type Token struct {
	ID       int64
	Created  time.Time
	LastUsed time.Time // zero: never used
}

// ErrNoToken: no such token of this player (revoking one that is not
// the player's, or revoked already).
var ErrNoToken = errors.New("no such API token")

// Dates are when a session or token was made and when it expires (zero: it
// does not).
type Dates struct {
	Created, Expires time.Time
}
