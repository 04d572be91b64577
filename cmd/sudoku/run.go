package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// command is one subcommand of the sudoku binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand may touch of the outside world; tests pass their own.
type env struct {
	getenv func(string) string
	// environ lists the environment (os.Environ) so that serve can warn of
	// a SUDOKU_ variable no flag reads; nil (tests) checks none.
	environ func() []string
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	// opened, when set, is handed the database `sudoku serve` opened, so
	// that a test can fill it (store.SetMaxPageCount) under the very server
	// the command runs.
	opened func(*store.DB)
	// archived, when set, is handed every archive.Archive a command makes
	// (newArchive), so that a test reads its counts of puzzles archived.
	archived func(*archive.Archive)
	// logger, when set (by serve), receives what opening the archive
	// reports (migrations, the engine's re-measure) instead of stderr's
	// plain lines.
	logger *slog.Logger
	// forceMigrate migrates the schema even while older servers are
	// connected (serve --force-migrate, SUDOKU_FORCE_MIGRATE=1).
	forceMigrate bool
	// regradeLog, when set, is how often serve's regrade logs its
	// progress (regradeEvery otherwise): tests shorten it.
	regradeLog time.Duration
	// starting, when set (by serve), receives what opening the archive is
	// doing, for the 503s the port answers meanwhile (web.Front).
	starting func(string)
	// migrating, when set (tests), is called as the schema's migrations
	// begin, and they wait for it to return.
	migrating func(from, to int64)
}

// startPhase tells serve's port what start-up is doing now.
func (e *env) startPhase(what string) {
	if e.starting != nil {
		e.starting(what)
	}
}

// regradeEvery is how often serve's background regrade logs its progress.
func (e *env) regradeEvery() time.Duration {
	if e.regradeLog > 0 {
		return e.regradeLog
	}
	return regradeEvery
}

// newArchive makes the archive a command's pipelines go through (every
// road into the archive: serve's, import's, attempts import's, generate
// --archive's), and hands it to the test hook.
func (e *env) newArchive(o archive.Options) *archive.Archive {
	a := archive.New(o)
	if e.archived != nil {
		e.archived(a)
	}
	return a
}

// commands lists the subcommands in the order `sudoku help` shows them.
// Each lives in its own file.
var commands = []command{
	{"serve", "serve the archive: web pages and the JSON API", runServe},
	{"solve", "solve puzzles and print solutions (and measures with --json)", runSolve},
	{"generate", "make new puzzles of a chosen band or grade (and archive them with --archive)", runGenerate},
	{"import", "archive every puzzle of files of one puzzle per line", runImport},
	{"export", "write every archived puzzle as txt, csv or json lines", runExport},
	{"backup", "write a consistent copy of the database, also while serve runs", runBackup},
	{"user", "accounts and API tokens: add, passwd, role, list, token", runUser},
	{"attempts", "import a play history from elsewhere (JSON lines)", runAttempts},
	{"ratings", "refit: recompute the players' figures from the attempts alone", runRatings},
	{"audit", "print the audit trail: moderation acts, role changes, tokens issued, accounts deleted", runAudit},
	{"copy", "move an archive to another database (SQLite or PostgreSQL), row for row, and verify it", runCopy},
	{"players", "the players: prune anonymous players long unseen", runPlayers},
	{"version", "print the version, commit and Go toolchain of this binary", runVersion},
}

// errQuiet is returned by a subcommand that has already told the user what
// went wrong (on stderr or in its output) and only needs a non-zero exit.
var errQuiet = errors.New("quiet failure")

// errUsage marks a command-line mistake: exit status 2.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// exitCode is the one map from an error to the exit status: 2 for a
// command-line mistake or input that cannot be read (record.KindInvalid,
// the classification the server answers 400), 1 for every other failure.
func exitCode(err error) int {
	var u errUsage
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u), errors.Is(err, flag.ErrHelp), record.KindOf(err) == record.KindInvalid:
		return 2
	default:
		return 1
	}
}

// run dispatches args (without the program name) to a subcommand.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	return dispatch(ctx, &env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}, args)
}

// dispatch runs the subcommand args name in e, as run does; tests call it
// with an env of their own (see env.opened).
func dispatch(ctx context.Context, e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return errUsage{"no command given"}
		}
		return nil
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == args[0] })
	if i < 0 {
		usage(stderr)
		return errUsage{fmt.Sprintf("unknown command %q", args[0])}
	}
	err := commands[i].run(ctx, e, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return nil // the flag set printed its usage on request
	}
	return err
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("usage: sudoku <command> [flags] [args]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun 'sudoku <command> --help' for a command's flags.\n")
	io.WriteString(w, b.String())
}

// newFlagSet returns a flag set for a subcommand that reports errors as
// errUsage and prints its usage on stderr.
func newFlagSet(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: sudoku %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning a flag mistake into errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage{err.Error()}
	}
	return nil
}

// dbFlag adds the --db flag every database command shares: the flag beats
// SUDOKU_DB, which beats sudoku.db in the working directory.
func dbFlag(fs *flag.FlagSet, e *env) *string {
	return fs.String("db", envOr(e, "SUDOKU_DB", defaultDB), "SQLite database file, created and migrated on first use, or a PostgreSQL URL (postgres://user@host/db, the database must exist) (env SUDOKU_DB)")
}

// existingDBFlag is dbFlag for a command that only reads an archive, which
// must exist: usage says what the command does with it.
func existingDBFlag(fs *flag.FlagSet, e *env, usage string) *string {
	return fs.String("db", envOr(e, "SUDOKU_DB", defaultDB), usage+" (env SUDOKU_DB)")
}
