package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// maxPruneAge bounds --older-than: ten years.
const maxPruneAge = 10 * 365 * 24 * time.Hour

// runPlayers is `sudoku players prune --anonymous --older-than 90d`: it
// deletes the anonymous players (never signed up) made before then who
// showed no sign of life since (an attempt started or finished, a flag, a
// visit), with their attempts and sessions (store
// PruneAnonymous; docs/players.md), and every expired session. Each batch
// is in the audit trail.
func runPlayers(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "players", "prune --anonymous --older-than AGE [--db FILE]")
	dbPath := dbFlag(fs, e)
	anonymous := fs.Bool("anonymous", false, "prune anonymous players (required: the only kind pruned)")
	olderThan := fs.String("older-than", "", "how long unseen, as `AGE`: days (90d), hours (36h) or a Go duration; at least a day")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "prune" {
		fs.Usage()
		return errUsage{"players needs the subcommand prune"}
	}
	if !*anonymous {
		return errUsage{"players prune: give --anonymous (only anonymous players are pruned; accounts are deleted one by one)"}
	}
	age, err := parseAge(*olderThan)
	if err != nil {
		return errUsage{"--older-than: " + err.Error()}
	}
	db, err := openExisting(ctx, e, "players prune", *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	cutoff := time.Now().Add(-age)
	res, err := db.PruneAnonymous(ctx, cutoff, moderation.CLI())
	fmt.Fprintf(e.stdout, "pruned %d anonymous players not seen since %s, with %d attempts and %d moderation reports (%d open, deleted with them); %d sessions ended\n",
		res.Players, cutoff.UTC().Format(time.DateOnly), res.Attempts, res.Reports, res.OpenReports, res.Sessions)
	return err
}

// parseAge reads an age: whole days ("90d"), or a Go duration ("36h");
// at least a day, at most ten years.
func parseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("give an age such as 90d")
	}
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.ParseUint(n, 10, 16)
		if err != nil {
			return 0, fmt.Errorf("%q: not a whole number of days", s)
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("%q: give days (90d) or hours (36h)", s)
		}
	}
	if d < 24*time.Hour || d > maxPruneAge {
		return 0, fmt.Errorf("%q: from a day (1d) to ten years (3650d)", s)
	}
	return d, nil
}
