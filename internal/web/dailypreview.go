package web

import (
	"github.com/sudoku-archive/sudoku/internal/record"
)

// dailyPreview is the JSON of a moderator's preview of a day to come:
// the puzzle object with "id": 0, said outright (a puzzle's id is left out
// when zero), since the preview is archived nowhere yet (docs/api.md).
type dailyPreview struct {
	ID int64 `json:"id"`
	record.Puzzle
}
