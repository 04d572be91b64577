package ratings

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A simulation is a synthetic archive with known difficulties and
// abilities, and the plays its players made.
type simulation struct {
	grades  []int64   // each puzzle's grade in tenths
	b, a    []float64 // the true difficulties and abilities
	plays   []Play    // in time order
	players int
}

// The simulator's settings (docs/ratings.md quotes its figures).
const (
	simPuzzles     = 300
	simPlayers     = 400
	simPlaysEach   = 40
	simNoise       = 0.35 // σ of a log time
	simGradeNoise  = 0.4  // how far a puzzle's true difficulty is from its grade's line
	simNeighbours  = 45   // a player picks among the puzzles nearest their level
	simGiveUpShare = 0.12 // a give-up: the slowest of the noise, stopped early
	simAbility     = 0.8  // σ of the abilities: skills from about 0.2 to 5
	simSeek        = 1.1  // how far a player's chosen level follows their ability
)

// simulate makes the synthetic archive from seed: grades uniform over
// 1.5-9.0, true difficulty on DefaultPrior's line plus noise, abilities
// Normal(0, 0.5); each player plays simPlaysEach puzzles among the
// simNeighbours whose difficulty is nearest the level they seek (typical
// difficulty + 2·ability: strong players seek hard puzzles, so the hard
// ones are played by the strong and their raw times look short); a time is
// exp(b − a + noise); an attempt whose noise is in the top simGiveUpShare
// gives up after 40-90% of it; a fifth of the solves take 1-3 hints,
// each saving what HintPenalty says.
func simulate(seed uint64) simulation {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := simulation{players: simPlayers}
	for range simPuzzles {
		g := int64(15 + r.IntN(76))
		s.grades = append(s.grades, g)
		s.b = append(s.b, DefaultPrior.Of(g)+simGradeNoise*r.NormFloat64())
	}
	for range simPlayers {
		s.a = append(s.a, simAbility*r.NormFloat64())
	}
	mid := DefaultPrior.Of(52)
	cut := simNoise * 1.175 // the normal's top 12%
	byB := make([]int, simPuzzles)
	for p := range simPlayers {
		for i := range byB {
			byB[i] = i
		}
		seek := mid + simSeek*s.a[p]
		slices.SortFunc(byB, func(x, y int) int { return cmpFloat(math.Abs(s.b[x]-seek), math.Abs(s.b[y]-seek)) })
		near := byB[:simNeighbours]
		r.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
		for _, i := range near[:simPlaysEach] {
			e := simNoise * r.NormFloat64()
			t := math.Exp(s.b[i] - s.a[p] + e)
			o := Observation{Solved: true}
			switch {
			case e > cut:
				o.Solved = false
				t *= 0.4 + 0.5*r.Float64()
			case r.IntN(5) == 0:
				o.Hints = int64(1 + r.IntN(3))
				t *= math.Exp(-HintPenalty * float64(o.Hints))
			}
			o.Seconds = int64(math.Round(t))
			s.plays = append(s.plays, Play{Class: int32(i), Player: int32(p), Observation: o})
		}
	}
	r.Shuffle(len(s.plays), func(i, j int) { s.plays[i], s.plays[j] = s.plays[j], s.plays[i] })
	return s
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// online runs Update over the plays in order, from the prior.
func (s simulation) online() ([]Class, []Player) {
	cs := make([]Class, len(s.grades))
	for i, g := range s.grades {
		cs[i] = NewClass(DefaultPrior.Of(g))
	}
	ps := make([]Player, s.players)
	for _, p := range s.plays {
		cs[p.Class], ps[p.Player] = Update(cs[p.Class], ps[p.Player], p.Observation)
	}
	return cs, ps
}

// medians is each puzzle's raw median solve time (log), for the puzzles
// with a solve, with their true difficulties.
func (s simulation) medians() (got, truth []float64) {
	times := make([][]float64, len(s.grades))
	for _, p := range s.plays {
		if p.Solved {
			times[p.Class] = append(times[p.Class], float64(p.Seconds))
		}
	}
	for i, ts := range times {
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		got = append(got, ts[len(ts)/2])
		truth = append(truth, s.b[i])
	}
	return got, truth
}

// rho is Spearman's ρ of the fitted difficulties (or abilities) with the
// truth.
func rhoClasses(cs []Class, truth []float64) float64 {
	got := make([]float64, len(cs))
	for i, c := range cs {
		got[i] = c.Difficulty
	}
	return Spearman(got, truth)
}

func rhoPlayers(ps []Player, truth []float64) float64 {
	got := make([]float64, len(ps))
	for i, p := range ps {
		got[i] = p.Ability
	}
	return Spearman(got, truth)
}

// TestSimulator: on synthetic archives where players choose puzzles near
// their level, the model recovers the true order of the puzzles and of
// the players (ρ ≥ 0.9), online and after a refit, where the raw medians
// do worse.
func TestSimulator(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := simulate(seed)
		cs, ps := s.online()
		f := Refit(s.grades, s.players, s.plays)
		med, truth := s.medians()
		figures := map[string]float64{
			"puzzles online": rhoClasses(cs, s.b), "puzzles refit": rhoClasses(f.Classes, s.b),
			"players online": rhoPlayers(ps, s.a), "players refit": rhoPlayers(f.Players, s.a),
		}
		raw := Spearman(med, truth)
		t.Logf("seed %d: %d plays; ρ puzzles online %.3f, refit %.3f; players online %.3f, refit %.3f; raw medians %.3f; rounds %v; prior fitted %+v",
			seed, len(s.plays), figures["puzzles online"], figures["puzzles refit"], figures["players online"], figures["players refit"], raw, f.Rounds, f.Prior)
		for name, rho := range figures {
			if !(rho >= 0.9) {
				t.Errorf("seed %d: ρ %s = %.3f, want at least 0.9", seed, name, rho)
			}
		}
		if !(raw < figures["puzzles online"]-0.05 && raw < figures["puzzles refit"]-0.05) {
			t.Errorf("seed %d: raw medians ρ %.3f, not clearly worse than the model's", seed, raw)
		}
	}
}

// TestRefitRepeats: a refit of the same plays gives the same figures, bit
// for bit.
func TestRefitRepeats(t *testing.T) {
	s := simulate(7)
	f, g := Refit(s.grades, s.players, s.plays), Refit(s.grades, s.players, slices.Clone(s.plays))
	for i := range f.Classes {
		if math.Float64bits(f.Classes[i].Difficulty) != math.Float64bits(g.Classes[i].Difficulty) || f.Classes[i] != g.Classes[i] {
			t.Fatalf("class %d: %+v then %+v", i, f.Classes[i], g.Classes[i])
		}
	}
	for i := range f.Players {
		if f.Players[i] != g.Players[i] {
			t.Fatalf("player %d: %+v then %+v", i, f.Players[i], g.Players[i])
		}
	}
	if f.Prior != g.Prior || f.Rounds != g.Rounds {
		t.Errorf("prior %+v %v then %+v %v", f.Prior, f.Rounds, g.Prior, g.Rounds)
	}
	if f.Rounds[0] >= MaxRounds {
		t.Errorf("the first pass did not converge in %d rounds", MaxRounds)
	}
}
