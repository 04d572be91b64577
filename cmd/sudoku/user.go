package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// userSynopsis is the usage line of `sudoku user`.
const userSynopsis = "add NAME [--role player|moderator|admin] | passwd NAME | role NAME ROLE | list | token NAME | tokens NAME | revoke NAME ID   [--db FILE] [--create]\n\n" +
	"add and passwd read the password from the first line of stdin; passwd ends the user's sessions and keeps its API tokens.\n" +
	"token prints a new API token once (only its hash is stored); tokens lists them (id, created, last used; never the token); revoke ends one.\n" +
	"--create (with add only) makes a new archive at --db for its first user; without it a mistyped --db is an error."

// runUser is `sudoku user`: accounts and API tokens from the command line.
func runUser(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "user", userSynopsis)
	dbPath := dbFlag(fs, e)
	role := fs.String("role", string(account.RolePlayer), "the role of a new user (add)")
	create := fs.Bool("create", false, "with add: create the archive if there is none at --db, for its first user (without it, a mistyped --db is an error, never a new archive)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage{"user needs a subcommand: add, passwd, role, list, token, tokens or revoke"}
	}
	want := map[string]int{"add": 1, "passwd": 1, "role": 2, "list": 0, "token": 1, "tokens": 1, "revoke": 2}
	n, ok := want[pos[0]]
	if !ok {
		return errUsage{fmt.Sprintf("unknown user subcommand %q: use add, passwd, role, list, token, tokens or revoke", pos[0])}
	}
	if len(pos)-1 != n {
		return errUsage{fmt.Sprintf("user %s takes %d argument(s), got %d", pos[0], n, len(pos)-1)}
	}
	r, err := account.ParseRole(*role)
	if err != nil {
		return errUsage{"--role: " + err.Error()}
	}
	var password string
	switch pos[0] {
	case "add", "passwd":
		// A new name follows the name rule; passwd finds an existing
		// one, which an older version may have let through.
		if err := account.CheckName(pos[1]); err != nil && pos[0] == "add" {
			return errUsage{err.Error()}
		}
		if password, err = readPassword(e); err != nil {
			return err
		}
	case "revoke":
		if _, err := userinput.ParseWhole("token id", pos[2], 1, math.MaxInt64); err != nil {
			return errUsage{fmt.Sprintf("revoke: %v (sudoku user tokens %s lists them)", err, pos[1])}
		}
	case "role":
		if r, err = account.ParseRole(pos[2]); err != nil {
			return errUsage{err.Error()}
		}
	}
	// Only add has something to do in a new archive: any other
	// subcommand would make an empty one and then find no user in it
	// (issue 50), so neither its refusal nor --create offers that.
	if *create && pos[0] != "add" {
		return errUsage{fmt.Sprintf("--create is for user add (a new archive's first user); user %s needs an archive with users", pos[0])}
	}
	fresh := missingArchive(*dbPath)
	if !*create {
		suggest := ""
		if pos[0] == "add" {
			suggest = "user --create add"
		}
		if err := requireArchive("user "+pos[0], *dbPath, suggest); err != nil {
			return err
		}
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	if fresh {
		fmt.Fprintf(e.stderr, "created a new archive at %s\n", *dbPath)
	}
	defer db.Close()
	if err := userCommand(ctx, e, db, pos, password, r); err != nil {
		if errors.Is(err, account.ErrNoPlayer) {
			return fmt.Errorf("no user called %q", pos[1])
		}
		if errors.Is(err, account.ErrNoToken) {
			return fmt.Errorf("%s has no API token %s: sudoku user tokens %s lists them", pos[1], pos[2], pos[1])
		}
		return err
	}
	return db.Close()
}

// userCommand runs one checked subcommand of `sudoku user`.
func userCommand(ctx context.Context, e *env, db *store.DB, pos []string, password string, role account.Role) error {
	switch pos[0] {
	case "add", "passwd":
		hash, err := account.HashPassword(password)
		if err != nil {
			return err
		}
		if pos[0] == "passwd" {
			sessions, tokens, err := db.SetPassword(ctx, pos[1], hash)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "password of %s changed; %s ended; %s kept (sudoku user tokens %s lists them, sudoku user revoke %s ID ends one)\n",
				pos[1], plural(sessions, "session", "sessions"), plural(tokens, "API token", "API tokens"), pos[1], pos[1])
			return nil
		}
		p, err := db.AddUser(ctx, pos[1], hash, role, moderation.CLI())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "added %s (player %d, %s)\n", p.Name, p.ID, p.Role)
	case "role":
		if err := db.SetRole(ctx, pos[1], role, moderation.CLI()); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is now %s\n", pos[1], role)
	case "token":
		token, hash := account.NewAPIToken()
		if _, err := db.AddToken(ctx, pos[1], hash, moderation.CLI()); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, token)
	case "tokens", "revoke":
		return tokensCommand(ctx, e, db, pos)
	case "list":
		us, err := db.Users(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tNAME\tROLE\tCREATED")
		for _, u := range us {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", u.ID, u.Name, u.Role, u.CreatedAt.Format("2006-01-02"))
		}
		return w.Flush()
	}
	return nil
}

// tokensCommand is `sudoku user tokens NAME` (id, created, last used;
// never the token) and `sudoku user revoke NAME ID` (audited).
func tokensCommand(ctx context.Context, e *env, db *store.DB, pos []string) error {
	p, err := db.PlayerNamed(ctx, pos[1])
	if err != nil {
		return err
	}
	if pos[0] == "revoke" {
		id, _ := userinput.ParseWhole("token id", pos[2], 1, math.MaxInt64) // checked by runUser
		if err := db.RevokeToken(ctx, p.ID, id, moderation.CLI()); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "revoked API token %d of %s\n", id, p.Name)
		return nil
	}
	ts, err := db.Tokens(ctx, p.ID)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tCREATED\tLAST USED")
	for _, t := range ts {
		last := "never"
		if !t.LastUsed.IsZero() {
			last = t.LastUsed.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%d\t%s\t%s\n", t.ID, t.Created.Format(time.RFC3339), last)
	}
	return w.Flush()
}

// plural is n with its noun: "1 session", "2 sessions".
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}

// readPassword reads the password from the first line of stdin.
func readPassword(e *env) (string, error) {
	line, err := bufio.NewReader(e.stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", errUsage{"no password on stdin: pipe it in, e.g. echo 'my long password' | sudoku user add NAME"}
	}
	password := strings.TrimRight(line, "\r\n")
	if err := account.CheckPassword(password); err != nil {
		return "", errUsage{err.Error()}
	}
	return password, nil
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, which it returns.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
