package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// runAudit is `sudoku audit`: the audit trail, newest first.
func runAudit(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "audit", "[--db FILE] [--limit N]")
	dbPath := existingDBFlag(fs, e, "the archive whose audit trail to print, which must exist: an SQLite file or a PostgreSQL URL")
	limit := wholeFlag(fs, "limit", 50, 1, moderation.MaxAuditPage, "the newest `N` entries")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errUsage{fmt.Sprintf("audit takes no arguments, got %q", fs.Args())}
	}
	if err := requireArchive("audit", *dbPath, ""); err != nil {
		return err
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	es, err := db.Audit(ctx, 0, int(*limit))
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tWHEN (UTC)\tWHO\tVIA\tACTION\tWHAT\tWHY\tDETAIL")
	for _, en := range es {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", en.ID, en.At.Format(time.DateTime), cell(actorName(en.Actor)),
			en.Actor.Via, en.Action, cell(subject(en)), cell(en.Reason), cell(en.Detail))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return db.Close()
}

// actorName names who acted: the player's name, or their id while
// anonymous.
func actorName(a moderation.Actor) string {
	switch {
	case a.Name != "":
		return a.Name
	case a.ID > 0:
		return fmt.Sprintf("player %d", a.ID)
	}
	return "-"
}

// subject is what an entry acted on: a puzzle or a player.
func subject(e moderation.Entry) string {
	switch {
	case e.PuzzleID > 0:
		return fmt.Sprintf("puzzle %d", e.PuzzleID)
	case e.PlayerName != "":
		return "player " + e.PlayerName
	case e.PlayerID > 0:
		return fmt.Sprintf("player %d", e.PlayerID)
	}
	return "-"
}

// cell keeps a text on one line of the table ("-" when empty): a reason
// may hold new lines and tabs.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "-"
	}
	return s
}
