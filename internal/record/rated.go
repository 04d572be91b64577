package record

// RatedPuzzle is a puzzle class with enough plays for its players' figure
// (PlayerSeconds), beside what the machine measured of it: a row of the
// ratings page (GET /ratings), which sets the one against the other.
type RatedPuzzle struct {
	ID          int64 // the class's first archived entry
	Backtracks  int64
	SolveNS     int64
	Clues       int
	GradeTenths int64  // 0: no grade
	Technique   string // the hardest technique; "" without a grade
	// Plays counts the class's counted attempts; PlayerSeconds is the time
	// the players' model expects of a typical player.
	Plays         int64
	PlayerSeconds int64
}
