package record

// Played filters a listing by a player's attempts (ListQuery.Played): the
// puzzles the player solved, or those the player never played. A puzzle
// counts by its class (its canonical form), as an attempt's "first" does:
// solving one way of writing a puzzle solves every other.
type Played string

// The played filters; "" lists every puzzle.
const (
	PlayedSolved   Played = "solved"   // the player has a solved attempt at the puzzle's class
	PlayedUnplayed Played = "unplayed" // the player has no attempt at the puzzle's class, finished or open
)

// Valid reports whether p is one of the filters.
func (p Played) Valid() bool {
	return p == PlayedSolved || p == PlayedUnplayed
}
