package templates

import "github.com/sudoku-archive/sudoku/internal/sudoku"

// NavGenerate is the "New puzzle" entry of the navigation.
const NavGenerate = "generate"

// GenerateForm is the state of the "New puzzle" form: the choices, and
// after a failed post what went wrong.
type GenerateForm struct {
	CSRF      string
	Kind      string // "band" or "grade"
	Band      string
	Min, Max  string // the grade range as typed
	Symmetric bool
	Error     string // "" when nothing went wrong
	// Closed says why this visitor cannot generate (serve
	// --anonymous-writes=false without an account); "" when they can.
	Closed string
}

// DailyLinks is what the home page shows of the puzzle of the day.
type DailyLinks struct {
	Today, Yesterday         string // YYYY-MM-DD
	TodayBand, YesterdayBand sudoku.Band
	HasYesterday             bool // false on the first day
}

// bandName is a band for people: "Fiendish".
func bandName(b sudoku.Band) string {
	if i, ok := b.Info(); ok {
		return i.Name
	}
	return string(b)
}

// GenerateBudgetText is how long the server looks for a puzzle, for the
// page (web.GenerateBudget).
const GenerateBudgetText = "3 seconds"
