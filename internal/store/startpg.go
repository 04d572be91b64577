package store

// startpg.go is a group commit's starts on PostgreSQL in one statement of
// arrays, as StartAttempt's steps (startSteps) would take them one after
// another, queued on the group's pipe.

import (
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// startAllSQL is startSteps for the starts of a group, each (player,
// puzzle) once ($1 the players, $2 the puzzles, $3 the time): it opens an
// attempt, in the arrays' order, for each puzzle to play that the player
// has no open attempt at, and counts them to the players. It returns a row
// for each start (n, its place in the arrays, from 1), then the attempt's
// columns (attemptColumns): 1 and the new attempt; 2 and the player's
// attempt at the puzzle still open; or 0 (and zeros) when there is no such
// puzzle to play. Each start's lookups are subqueries of their own, found
// by key whatever the plan makes of the arrays.
var startAllSQL = `WITH r AS MATERIALIZED (
    SELECT * FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS r (player, puzzle, n)),
p AS MATERIALIZED (
    SELECT r.n, r.player, r.puzzle, z.key FROM r,
        LATERAL (SELECT coalesce(canonical_key, givens_key) AS key FROM puzzles WHERE id = r.puzzle AND ` + visible + `) AS z),
o AS MATERIALIZED (
    SELECT r.n, x.* FROM r,
        LATERAL (SELECT ` + attemptColumns + ` FROM attempts WHERE player_id = r.player AND puzzle_id = r.puzzle AND outcome = 'open' LIMIT 1) AS x),
ins AS (
    INSERT INTO attempts (player_id, puzzle_id, class_key, started_at)
    SELECT p.player, p.puzzle, p.key, $3 FROM p WHERE NOT EXISTS (SELECT 1 FROM o WHERE o.n = p.n) ORDER BY p.n
    RETURNING ` + attemptColumns + `),
pl AS (
    UPDATE players SET attempts = players.attempts + c.n
    FROM (SELECT player_id, count(*) AS n FROM ins GROUP BY player_id) AS c
    WHERE players.id = c.player_id AND players.id = ANY($1))
SELECT p.n, 1, ` + strings.ReplaceAll(attemptColumns, "attempts.", "ins.") + ` FROM ins JOIN p ON p.player = ins.player_id AND p.puzzle = ins.puzzle_id
UNION ALL
SELECT o.n, 2, ` + strings.ReplaceAll(attemptColumns, "attempts.", "o.") + ` FROM o JOIN p ON p.n = o.n
UNION ALL
SELECT r.n, 0, 0, 0, 0, 0, NULL::bigint, '', 0, 0, 0, 0, 0, '', 0, 0 FROM r WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.n = r.n)`

// queueStarts queues the starts of a group on PostgreSQL
// (commitFinishesPG) on its pipe: startAllSQL, whose answer sets each
// start's result (put(j): the result of starts[j]) when it arrives. A
// start of a (player, puzzle) already started earlier in the group gets
// the earlier start's attempt, not created, as startSteps would find it.
// The answer only reads, so the statement may go with the COMMIT.
func queueStarts(p *pipe, starts []*finishReq, now time.Time, put func(j int) *finishResult) {
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
	p.Queue(startAllSQL, players, puzzles, now.UnixNano()).Query(func(rows pgx.Rows) error {
		if err := answerStarts(rows, now, sent, starts, put); err != nil {
			return err
		}
		for i, r := range starts {
			if j := first[pair{r.player, r.puzzle}]; j != i {
				*put(i) = *put(j)
				put(i).created = false
			}
		}
		return nil
	})
}

// answerStarts reads startAllSQL's rows and answers the starts sent (by
// place in starts).
func answerStarts(rows pgx.Rows, now time.Time, sent []int, starts []*finishReq, put func(j int) *finishResult) error {
	for rows.Next() {
		var n, kind int64
		a, err := scanAttempt(func(dest ...any) error { return rows.Scan(append([]any{&n, &kind}, dest...)...) })
		if err != nil {
			return err
		}
		i := sent[n-1]
		r := starts[i]
		switch kind {
		case 0:
			*put(i) = finishResult{err: fmt.Errorf("puzzle %d: %w", r.puzzle, record.ErrNotFound)}
		case 1:
			*put(i) = finishResult{a: account.Attempt{ID: a.ID, PlayerID: r.player, PuzzleID: r.puzzle, StartedAt: now, Outcome: account.OutcomeOpen}, created: true}
		case 2:
			*put(i) = finishResult{a: a}
		}
	}
	return rows.Err()
}
