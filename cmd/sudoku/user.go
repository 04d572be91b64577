package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// userSynopsis is the usage line of `sudoku user`.
const userSynopsis = "add NAME [--role player|moderator|admin] | passwd NAME | role NAME ROLE | list | token NAME   [--db FILE] [--create]\n\n" +
	"add and passwd read the password from the first line of stdin; token prints a new API token once (only its hash is stored)."

// runUser is `sudoku user`: accounts and API tokens from the command line.
func runUser(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "user", userSynopsis)
	dbPath := dbFlag(fs, e)
	role := fs.String("role", string(account.RolePlayer), "the role of a new user (add)")
	create := fs.Bool("create", false, "create the archive if there is none at --db (without it, a mistyped --db is an error, never a new archive)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage{"user needs a subcommand: add, passwd, role, list or token"}
	}
	want := map[string]int{"add": 1, "passwd": 1, "role": 2, "list": 0, "token": 1}
	n, ok := want[pos[0]]
	if !ok {
		return errUsage{fmt.Sprintf("unknown user subcommand %q: use add, passwd, role, list or token", pos[0])}
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
		if err := account.CheckName(pos[1]); err != nil {
			return errUsage{err.Error()}
		}
		if password, err = readPassword(e); err != nil {
			return err
		}
	case "role":
		if r, err = account.ParseRole(pos[2]); err != nil {
			return errUsage{err.Error()}
		}
	}
	fresh := missingArchive(*dbPath)
	if !*create {
		if err := requireArchive("user "+pos[0], *dbPath, "user --create "+pos[0]); err != nil {
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
			if err := db.SetPassword(ctx, pos[1], hash); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "password of %s changed; its sessions ended\n", pos[1])
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
		if err := db.AddToken(ctx, pos[1], hash, moderation.CLI()); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, token)
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
