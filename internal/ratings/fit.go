package ratings

import "math"

// The refit's fixed schedule: at most MaxRounds rounds of each pass, ending
// early once no difficulty or ability moves by more than Tolerance.
const (
	MaxRounds = 100
	Tolerance = 1e-7
	// MinPriorClasses is how many classes with MinPlays plays and a grade a
	// refit needs to fit the prior to the archive; with fewer it keeps
	// DefaultPrior.
	MinPriorClasses = 20
)

// A Play is one counted attempt for Fit: its class and player (indexes
// into Fit's classes and players) and what was observed.
type Play struct {
	Class, Player int32
	Observation
}

// A Fit is what a refit computes: every class's and player's state, the
// prior it used (fitted to the archive, or DefaultPrior) and how many
// rounds each pass took.
type Fit struct {
	Classes []Class
	Players []Player
	Prior   Prior
	Rounds  [2]int
}

// Refit fits the model to plays alone: grades[i] is class i's grade in
// tenths (0 for none), players how many players there are. It runs
// alternating least squares from the prior (ability 0 for every player),
// each round solving every ability given the difficulties, centring the
// abilities (mean 0), then solving every difficulty given the abilities,
// each a ridge regression towards its prior (PriorWeight,
// PlayerPriorWeight), give-ups at their censored mean under the current
// prediction and residuals clamped as in Update. It does this twice: with
// DefaultPrior, then with the prior fitted to the first pass's
// difficulties by least squares on the grade (when MinPriorClasses classes
// allow it). The same input gives the same output, bit for bit: sums run
// in the order of plays, one goroutine.
func Refit(grades []int64, players int, plays []Play) Fit {
	f := Fit{Prior: DefaultPrior}
	f.Rounds[0] = f.pass(grades, players, plays)
	if p, ok := FitPrior(grades, f.Classes); ok {
		f.Prior = p
		f.Rounds[1] = f.pass(grades, players, plays)
	}
	return f
}

// pass runs the alternating least squares from f.Prior and returns how
// many rounds it took.
func (f *Fit) pass(grades []int64, players int, plays []Play) int {
	cs := make([]Class, len(grades))
	for i, g := range grades {
		cs[i] = NewClass(f.Prior.Of(g))
	}
	for _, p := range plays {
		c := &cs[p.Class]
		c.Plays++
		if p.Solved {
			c.Solves++
		}
	}
	ps := make([]Player, players)
	for _, p := range plays {
		ps[p.Player].Rated++
	}
	sum := make([]float64, max(len(cs), len(ps)))
	rounds := 0
	for rounds < MaxRounds {
		rounds++
		moved := abilities(cs, ps, plays, sum)
		if m := difficulties(cs, ps, plays, sum); m > moved {
			moved = m
		}
		if moved <= Tolerance {
			break
		}
	}
	for i := range cs {
		cs[i].Weight = PriorWeight + float64(cs[i].Plays)
	}
	f.Classes, f.Players = cs, ps
	return rounds
}

// abilities solves every ability given the difficulties, centres them and
// returns the largest change; sum is scratch space.
func abilities(cs []Class, ps []Player, plays []Play, sum []float64) float64 {
	clear(sum)
	for _, p := range plays {
		c, a := cs[p.Class].Difficulty, ps[p.Player].Ability
		sum[p.Player] += a - p.residual(c-a) // b − y
	}
	var mean float64
	for i := range ps {
		sum[i] /= PlayerPriorWeight + float64(ps[i].Rated)
		mean += sum[i]
	}
	if len(ps) > 0 {
		mean /= float64(len(ps))
	}
	moved := 0.0
	for i := range ps {
		a := sum[i] - mean
		moved = math.Max(moved, math.Abs(a-ps[i].Ability))
		ps[i].Ability = a
	}
	return moved
}

// difficulties solves every difficulty given the abilities and returns the
// largest change; sum is scratch space.
func difficulties(cs []Class, ps []Player, plays []Play, sum []float64) float64 {
	clear(sum)
	for _, p := range plays {
		b, a := cs[p.Class].Difficulty, ps[p.Player].Ability
		sum[p.Class] += b + p.residual(b-a) // y + a
	}
	moved := 0.0
	for i := range cs {
		c := &cs[i]
		b := (PriorWeight*c.Prior + sum[i]) / (PriorWeight + float64(c.Plays))
		moved = math.Max(moved, math.Abs(b-c.Difficulty))
		c.Difficulty = b
	}
	return moved
}

// FitPrior fits Alpha and Beta by least squares to the difficulties of the
// graded classes with MinPlays plays, and Ungraded to the mean of the
// ungraded ones (Alpha + 4.5·Beta without any); ok is false when fewer
// than MinPriorClasses graded classes qualify, their grades are all one,
// or the slope is not positive (harder grades slower).
func FitPrior(grades []int64, cs []Class) (Prior, bool) {
	var n, sx, sy, sxx, sxy float64
	var un, usum float64
	for i, c := range cs {
		if c.Plays < MinPlays {
			continue
		}
		if grades[i] <= 0 {
			un++
			usum += c.Difficulty
			continue
		}
		x := float64(grades[i]) / 10
		n++
		sx += x
		sy += c.Difficulty
		sxx += x * x
		sxy += x * c.Difficulty
	}
	if n < MinPriorClasses {
		return DefaultPrior, false
	}
	den := n*sxx - sx*sx
	if den <= 1e-9 {
		return DefaultPrior, false
	}
	beta := (n*sxy - sx*sy) / den
	if beta <= 0 {
		return DefaultPrior, false
	}
	p := Prior{Alpha: (sy - beta*sx) / n, Beta: beta}
	p.Ungraded = p.Alpha + 4.5*p.Beta
	if un > 0 {
		p.Ungraded = usum / un
	}
	return p, true
}
