package ratings

import "math"

// The refit's fixed schedule: at most MaxRounds rounds of each pass, ending
// early once no difficulty or ability moves by more than Tolerance.
const (
	MaxRounds = 50
	Tolerance = 1e-6
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
// tenths (0 for none), players how many players there are. It solves the
// ridge least squares of every play's log time (towards each difficulty's
// prior with PriorWeight, each ability's 0 with PlayerPriorWeight), with
// give-ups at their censored mean and residuals clamped as in Update, the
// values fixed at the previous round's prediction (see pass), from the
// prior (ability 0 for every player). It does this twice: with
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

// pass fits f.Prior's model to the plays and returns how many outer
// rounds it took. Each round fixes every play's value (a give-up's
// censored mean, a residual's clamp) at the current prediction and solves
// the ridge least squares of b − a against them exactly, by conjugate
// gradients (solve); the rounds stop when no figure moves by more than
// Tolerance. Then the abilities are centred: every a and b moves by the
// abilities' mean, which leaves every prediction as it was, so a typical
// player is this archive's average one.
func (f *Fit) pass(grades []int64, players int, plays []Play) int {
	cs := make([]Class, len(grades))
	for i, g := range grades {
		cs[i] = NewClass(f.Prior.Of(g))
	}
	ps := make([]Player, players)
	for _, p := range plays {
		c := &cs[p.Class]
		c.Plays++
		if p.Solved {
			c.Solves++
		}
		ps[p.Player].Rated++
	}
	ls := newLSQ(cs, ps, plays)
	rounds := 0
	for rounds < MaxRounds {
		rounds++
		ls.values(cs, ps)
		if moved := ls.solve(cs, ps); moved <= Tolerance {
			break
		}
	}
	centre(cs, ps)
	for i := range cs {
		cs[i].Weight = PriorWeight + float64(cs[i].Plays)
	}
	f.Classes, f.Players = cs, ps
	return rounds
}

// centre moves every ability and difficulty by the abilities' mean.
func centre(cs []Class, ps []Player) {
	if len(ps) == 0 {
		return
	}
	var mean float64
	for _, p := range ps {
		mean += p.Ability
	}
	mean /= float64(len(ps))
	for i := range ps {
		ps[i].Ability -= mean
	}
	for i := range cs {
		cs[i].Difficulty -= mean
	}
}

// lsq is the ridge least squares of a round: unknowns x = (b for every
// class, a for every player), each play the equation b_c − a_p = y, each
// b pulled to its prior with weight PriorWeight and each a to 0 with
// PlayerPriorWeight. Its normal equations A·x = rhs are solved by
// conjugate gradients preconditioned by A's diagonal (plays + weight).
type lsq struct {
	plays        []Play
	y            []float64 // each play's value this round
	nc           int       // classes: x[:nc] are b, x[nc:] are a
	diag, x, rhs []float64
	r, z, d, ad  []float64 // the solver's vectors
}

// The inner solver's schedule: at most maxInner iterations a round, ending
// when the residual's norm falls below innerTolerance of the right-hand
// side's.
const (
	maxInner       = 400
	innerTolerance = 1e-10
)

func newLSQ(cs []Class, ps []Player, plays []Play) *lsq {
	n := len(cs) + len(ps)
	ls := &lsq{plays: plays, y: make([]float64, len(plays)), nc: len(cs)}
	for _, v := range []*[]float64{&ls.diag, &ls.x, &ls.rhs, &ls.r, &ls.z, &ls.d, &ls.ad} {
		*v = make([]float64, n)
	}
	for i, c := range cs {
		ls.diag[i] = PriorWeight + float64(c.Plays)
	}
	for i, p := range ps {
		ls.diag[len(cs)+i] = PlayerPriorWeight + float64(p.Rated)
	}
	return ls
}

// values fixes each play's value at the current prediction, and the
// right-hand side with them.
func (ls *lsq) values(cs []Class, ps []Player) {
	for k, p := range ls.plays {
		mu := cs[p.Class].Difficulty - ps[p.Player].Ability
		ls.y[k] = mu + p.residual(mu)
	}
	for i, c := range cs {
		ls.rhs[i] = PriorWeight * c.Prior
	}
	clear(ls.rhs[ls.nc:])
	for k, p := range ls.plays {
		ls.rhs[p.Class] += ls.y[k]
		ls.rhs[ls.nc+int(p.Player)] -= ls.y[k]
	}
}

// mul sets out = A·v.
func (ls *lsq) mul(v, out []float64) {
	for i := range out {
		out[i] = ls.diag[i] * v[i]
	}
	for _, p := range ls.plays {
		c, a := int(p.Class), ls.nc+int(p.Player)
		out[c] -= v[a]
		out[a] -= v[c]
	}
}

// solve runs the preconditioned conjugate gradients from the current
// figures, writes the solution back and returns the largest change.
func (ls *lsq) solve(cs []Class, ps []Player) float64 {
	x := ls.x
	for i, c := range cs {
		x[i] = c.Difficulty
	}
	for i, p := range ps {
		x[ls.nc+i] = p.Ability
	}
	ls.mul(x, ls.ad)
	var rz, norm0 float64
	for i := range x {
		ls.r[i] = ls.rhs[i] - ls.ad[i]
		ls.z[i] = ls.r[i] / ls.diag[i]
		ls.d[i] = ls.z[i]
		rz += ls.r[i] * ls.z[i]
		norm0 += ls.rhs[i] * ls.rhs[i]
	}
	for it := 0; it < maxInner && rz > 0; it++ {
		ls.mul(ls.d, ls.ad)
		var dad float64
		for i := range x {
			dad += ls.d[i] * ls.ad[i]
		}
		alpha := rz / dad
		var rr, rzNext float64
		for i := range x {
			x[i] += alpha * ls.d[i]
			ls.r[i] -= alpha * ls.ad[i]
			ls.z[i] = ls.r[i] / ls.diag[i]
			rr += ls.r[i] * ls.r[i]
			rzNext += ls.r[i] * ls.z[i]
		}
		if rr <= innerTolerance*innerTolerance*norm0 {
			break
		}
		beta := rzNext / rz
		rz = rzNext
		for i := range x {
			ls.d[i] = ls.z[i] + beta*ls.d[i]
		}
	}
	moved := 0.0
	for i := range cs {
		moved = math.Max(moved, math.Abs(x[i]-cs[i].Difficulty))
		cs[i].Difficulty = x[i]
	}
	for i := range ps {
		moved = math.Max(moved, math.Abs(x[ls.nc+i]-ps[i].Ability))
		ps[i].Ability = x[ls.nc+i]
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
