package store

// startpg.go is a group commit's starts on PostgreSQL in one statement of
// arrays, as StartAttempt's steps (startSteps) would take them one after
// another.

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// startAllSQL is startSteps for the starts of a group, each (player,
// puzzle) once ($1 the players, $2 the puzzles, $3 the time): it opens an
// attempt, in the arrays' order, for each puzzle to play that the player
// has no open attempt at, and counts them to the players. It returns a row
// for each start (n, its place in the arrays, from 1): 1 and the new
// attempt's id; 2 and the id of the player's attempt at the puzzle still
// open; or 0 when there is no such puzzle to play. Each start's lookups
// are subqueries of their own, found by key whatever the plan makes of the
// arrays.
const startAllSQL = `WITH r AS MATERIALIZED (
    SELECT * FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS r (player, puzzle, n)),
p AS MATERIALIZED (
    SELECT r.n, r.player, r.puzzle, z.key FROM r,
        LATERAL (SELECT coalesce(canonical_key, givens_key) AS key FROM puzzles WHERE id = r.puzzle AND ` + visible + `) AS z),
o AS MATERIALIZED (
    SELECT r.n, x.id FROM r,
        LATERAL (SELECT id FROM attempts WHERE player_id = r.player AND puzzle_id = r.puzzle AND outcome = 'open' LIMIT 1) AS x),
ins AS (
    INSERT INTO attempts (player_id, puzzle_id, class_key, started_at)
    SELECT p.player, p.puzzle, p.key, $3 FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.n = p.n) ORDER BY p.n
    RETURNING id, player_id, puzzle_id),
pl AS (
    UPDATE players SET attempts = players.attempts + c.n
    FROM (SELECT player_id, count(*) AS n FROM ins GROUP BY player_id) AS c
    WHERE players.id = c.player_id AND players.id = ANY($1))
SELECT p.n, 1, ins.id FROM ins JOIN p ON p.player = ins.player_id AND p.puzzle = ins.puzzle_id
UNION ALL
SELECT o.n, 2, o.id FROM o JOIN p ON p.n = o.n
UNION ALL
SELECT r.n, 0, 0 FROM r WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.n = r.n)`

// startAll is the starts of a group on PostgreSQL (commitFinishesPG):
// startAllSQL, then a read of each open attempt found (rare). A start of
// a (player, puzzle) already started earlier in the group gets the
// earlier start's attempt, not created, as startSteps would find it.
func startAll(tx *sql.Tx, starts []*finishReq, now time.Time) ([]finishResult, error) {
	type pair struct{ player, puzzle int64 }
	first := map[pair]int{} // the first start of each pair, by place in starts
	var players, puzzles []int64
	var sent []int // the place in starts of each start sent
	for i, r := range starts {
		k := pair{r.player, r.puzzle}
		if _, ok := first[k]; ok {
			continue
		}
		first[k] = i
		players, puzzles, sent = append(players, r.player), append(puzzles, r.puzzle), append(sent, i)
	}
	results := make([]finishResult, len(starts))
	open, err := runStarts(tx, players, puzzles, now, sent, starts, results)
	if err != nil {
		return nil, err
	}
	for _, i := range open {
		a, err := scanAttempt(tx.QueryRow("SELECT "+attemptColumns+" FROM attempts WHERE id = $1", results[i].a.ID).Scan)
		if err != nil {
			return nil, err
		}
		results[i].a = a
	}
	for i, r := range starts {
		if j := first[pair{r.player, r.puzzle}]; j != i {
			results[i] = results[j]
			results[i].created = false
		}
	}
	return results, nil
}

// runStarts runs startAllSQL and answers the starts sent (by place in
// starts) in results; it returns the places of the starts that found an
// attempt open, whose rows are still to be read.
func runStarts(tx *sql.Tx, players, puzzles []int64, now time.Time, sent []int, starts []*finishReq, results []finishResult) ([]int, error) {
	rows, err := tx.Query(startAllSQL, players, puzzles, now.UnixNano())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var open []int
	for rows.Next() {
		var n, kind, id int64
		if err := rows.Scan(&n, &kind, &id); err != nil {
			return nil, err
		}
		i := sent[n-1]
		r := starts[i]
		switch kind {
		case 0:
			results[i].err = fmt.Errorf("puzzle %d: %w", r.puzzle, sudoku.ErrNotFound)
		case 1:
			results[i] = finishResult{a: account.Attempt{ID: id, PlayerID: r.player, PuzzleID: r.puzzle, StartedAt: now, Outcome: account.OutcomeOpen}, created: true}
		case 2:
			results[i].a.ID = id
			open = append(open, i)
		}
	}
	return open, rows.Err()
}
