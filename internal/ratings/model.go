// Package ratings is the players' difficulty model: how long a typical
// player needs for a puzzle, and how much faster than typical each player
// is, learnt from the attempts (docs/ratings.md explains it with
// its figures).
//
// The model is the log-time model of Pelánek and Jarušek:
//
//	log t(player p, class i) = b_i − a_p + ε,   ε ~ Normal(0, Sigma²)
//
// b_i is the class's difficulty (the log of a typical player's seconds),
// a_p the player's ability (0 typical; the API's skill is exp(a_p)).
// An observation is a player's first finished attempt at a class (not in
// practice): a solve is y = log(seconds) plus HintPenalty per hint; a give
// up after s seconds says only that y > log(s), and counts as the mean of
// the model's normal above log(s) (a censored observation). Seconds are
// clamped to [MinSeconds, MaxSeconds] and a residual to ±MaxResidual, so no
// one attempt moves a figure far. b starts from a prior on the grade
// (Prior), worth PriorWeight observations; a from 0, worth
// PlayerPriorWeight.
//
// Update is the online step every finish takes; Fit the refit's
// alternating least squares from the attempts alone. Both are pure and
// deterministic: no maps are iterated, sums run in the input's order.
package ratings

import "math"

// The model's constants (docs/ratings.md says why each is what it is).
const (
	// MinPlays is how many counted attempts a class needs before it shows
	// player_seconds (docs/ratings.md "The figures": at most 5).
	MinPlays = 3
	// MinSeconds and MaxSeconds clamp an attempt's seconds before its log
	// is taken: a solve faster than 5 s is a paste, a day is as slow as
	// the model believes.
	MinSeconds = 5
	MaxSeconds = 24 * 60 * 60
	// HintPenalty is added to log(seconds) per hint taken: each hint is
	// taken to save about 15% of the time (exp(0.15) ≈ 1.16), up to
	// MaxPenalisedHints hints.
	HintPenalty       = 0.15
	MaxPenalisedHints = 10
	// Sigma is the noise of one log time (Pelánek's data: 0.3-0.6); it
	// sets how much longer than the time spent a give-up counts.
	Sigma = 0.5
	// MaxResidual clamps one observation's residual y − (b − a) in log
	// units: one attempt moves b by at most MaxResidual / weight.
	MaxResidual = 1.5
	// PriorWeight is how many observations a class's prior is worth;
	// PlayerPriorWeight a player's (ability 0).
	PriorWeight       = 2.0
	PlayerPriorWeight = 2.0
	// PracticeWeight is what an attempt in practice mode (the hint names
	// the technique) counts: nothing. Such attempts are recorded, never
	// counted, and still take the player's first attempt at the class
	// (who has seen the puzzle), so a later one is not counted either.
	PracticeWeight = 0
)

// An Observation is one counted attempt.
type Observation struct {
	Seconds int64
	Solved  bool
	Hints   int64
}

// Target returns the observation's log time before censoring: the clamped
// seconds' log, plus the hints' penalty for a solve. For a give-up it is
// the censoring point (the true log time is longer).
func (o Observation) Target() float64 {
	s := min(max(o.Seconds, MinSeconds), MaxSeconds)
	y := math.Log(float64(s))
	if o.Solved {
		y += HintPenalty * float64(min(max(o.Hints, 0), MaxPenalisedHints))
	}
	return y
}

// Value is the log time the model takes o for, given its prediction mu =
// b − a: the Target of a solve; for a give-up at c = Target, the mean of
// Normal(mu, Sigma²) above c (mu + Sigma·φ(z)/(1−Φ(z)), z = (c−mu)/Sigma),
// which is never below c nor below mu.
func (o Observation) Value(mu float64) float64 {
	c := o.Target()
	if o.Solved {
		return c
	}
	z := (c - mu) / Sigma
	return mu + Sigma*millsInverse(z)
}

// millsInverse is φ(z)/(1−Φ(z)), the inverse Mills ratio, computed in a
// way that stays finite far in the tail (there it tends to z).
func millsInverse(z float64) float64 {
	if z > 30 {
		return z + 1/z
	}
	tail := 0.5 * math.Erfc(z/math.Sqrt2)
	return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) / tail
}

// residual is o's clamped residual against the prediction mu.
func (o Observation) residual(mu float64) float64 {
	return min(max(o.Value(mu)-mu, -MaxResidual), MaxResidual)
}

// A Prior is a class's difficulty before its plays: Alpha + Beta·grade, in
// log seconds, grade on Sudoku Explainer's scale; Ungraded for a class
// without a grade.
type Prior struct {
	Alpha, Beta, Ungraded float64
}

// DefaultPrior is the prior before a refit has fitted one to the
// archive's plays: 5 minutes at grade 2, 30 minutes at grade 7 (a line
// through the two in log seconds), and grade 4.5's for an ungraded class.
var DefaultPrior = func() Prior {
	lo, hi := math.Log(5*60), math.Log(30*60)
	beta := (hi - lo) / 5
	alpha := lo - 2*beta
	return Prior{Alpha: alpha, Beta: beta, Ungraded: alpha + 4.5*beta}
}()

// Of returns the prior difficulty of a class graded tenths/10 (0: none).
func (p Prior) Of(tenths int64) float64 {
	if tenths <= 0 {
		return p.Ungraded
	}
	return p.Alpha + p.Beta*float64(tenths)/10
}

// A Class is the model's state of a class: its difficulty b, how many
// observations it is worth (the prior's included), its prior, and its
// counted plays and solves.
type Class struct {
	Difficulty, Weight, Prior float64
	Plays, Solves             int64
}

// NewClass is the state of a class before its first counted attempt.
func NewClass(prior float64) Class {
	return Class{Difficulty: prior, Weight: PriorWeight, Prior: prior}
}

// Seconds is the time the model expects of a typical player, rounded, or
// 0 until the class has MinPlays plays.
func (c Class) Seconds() int64 {
	if c.Plays < MinPlays {
		return 0
	}
	return int64(math.Round(math.Exp(c.Difficulty)))
}

// A Player is the model's state of a player: ability a and how many
// counted attempts it rests on.
type Player struct {
	Ability float64
	Rated   int64
}

// PlayerOf returns the state of a player of skill (exp(a)) rated times.
func PlayerOf(skill float64, rated int64) Player {
	if skill <= 0 {
		skill = 1
	}
	return Player{Ability: math.Log(skill), Rated: rated}
}

// Skill is exp(a): 1.0 typical, 2.0 twice as fast.
func (p Player) Skill() float64 {
	return math.Exp(p.Ability)
}

// Expected is the seconds the model expects of player p at class c.
func Expected(c Class, p Player) float64 {
	return math.Exp(c.Difficulty - p.Ability)
}

// Update is the online step of one counted attempt o of player p at class
// c: both move by the same clamped residual, each in proportion to how
// little it is known (1/weight, after counting o), so a class's difficulty
// is the running mean of its observations and its prior's.
func Update(c Class, p Player, o Observation) (Class, Player) {
	r := o.residual(c.Difficulty - p.Ability)
	c.Plays++
	if o.Solved {
		c.Solves++
	}
	c.Weight++
	c.Difficulty += r / c.Weight
	p.Rated++
	p.Ability -= r / (PlayerPriorWeight + float64(p.Rated))
	return c, p
}
