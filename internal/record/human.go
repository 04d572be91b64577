package record

import "math"

// The human order (sort=human, docs/ratings.md "The human order") puts
// every puzzle on one scale, the seconds a typical player needs:
//
//   - a puzzle with player_seconds (enough plays, the players' model) is
//     at its player_seconds;
//   - a graded puzzle without is at the time the ratings model's default
//     prior gives its grade before anyone plays it: 5 minutes at grade 2.0,
//     30 minutes at grade 7.0, times 6 every 5 grades in between and beyond
//     (GradeSeconds);
//   - a puzzle with neither (several solutions, or not graded yet) has no
//     place (0) and comes after the others in either order, like
//     player_time's.
//
// The default prior, not the one a refit fits to the archive, so that the
// stored key of an unplayed puzzle never moves when the model is refitted
// (the archive keeps the key as a computed column, migration 00021: it
// follows every write of the grade or of player_seconds by itself).

// humanRate is log(6)/50: the grade's prior time grows 6 times every 50
// tenths. The archive's column spells the same literal (migration 00021);
// a store test checks that the two agree on every grade.
const humanRate = 0.0358351893845611

// GradeSeconds is the time a typical player is expected to need at a
// puzzle of the grade tenths/10 before anyone has played it: 300 s at
// grade 2.0, ×6 every 5 grades, rounded; 0 for no grade (tenths <= 0).
func GradeSeconds(tenths int64) int64 {
	if tenths <= 0 {
		return 0
	}
	return int64(math.Round(300 * math.Exp(float64(tenths-20)*humanRate)))
}

// HumanSeconds is p's key in the human order: its player_seconds when it
// has them, the GradeSeconds of its grade otherwise, 0 for neither.
func (p *Puzzle) HumanSeconds() int64 {
	if s := OrZero(p.PlayerSeconds); s > 0 {
		return s
	}
	return GradeSeconds(p.GradeTenths())
}
