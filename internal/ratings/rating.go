package ratings

import "math"

// The player's rating: the model's skill written on the scale players of
// chess trainers know (Lichess's puzzle rating), so that a solve's effect
// reads as "rating 1,540 → 1,562". The number is the skill, nothing more:
// a typical player (skill 1, ability 0) is RatingTypical, and each tenfold
// in speed is RatingPerTenfold points, as Elo's 400 points are odds of ten
// to one. Twice as fast as typical is about 1,620, half as fast 1,380.
const (
	RatingTypical    = 1500
	RatingPerTenfold = 400
)

// Rating is the rating of a player of skill (exp of the ability), rounded
// to a whole number; a skill of 0 or less (none learnt) is typical.
func Rating(skill float64) int {
	if skill <= 0 || math.IsNaN(skill) || math.IsInf(skill, 0) {
		return RatingTypical
	}
	return int(math.Round(RatingTypical + RatingPerTenfold*math.Log10(skill)))
}
