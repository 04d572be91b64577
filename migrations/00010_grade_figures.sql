-- +goose Up
-- Sudoku Explainer's other two figures beside the grade, and the techniques
-- of the logical path (see package logic's figures.go):
--
-- grade_ep: the hardest step up to and including the first placement, in
--   tenths like grade; 0 while the row has no grade.
-- grade_ed: the grade of the first step, in tenths; 0 likewise.
-- techniques: the names of every technique the path used, each once,
--   easiest first, joined by '|'; '' likewise.
--
-- Rows graded before this migration have none of them: the solver's grade
-- version moved to 2 with it, so every row is graded again, in place, by
-- the background graders of the next `sudoku serve` (or `sudoku import`).
ALTER TABLE puzzles ADD COLUMN grade_ep INTEGER NOT NULL DEFAULT 0 CHECK (grade_ep >= 0);
ALTER TABLE puzzles ADD COLUMN grade_ed INTEGER NOT NULL DEFAULT 0 CHECK (grade_ed >= 0);
ALTER TABLE puzzles ADD COLUMN techniques TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE puzzles DROP COLUMN techniques;
ALTER TABLE puzzles DROP COLUMN grade_ed;
ALTER TABLE puzzles DROP COLUMN grade_ep;
