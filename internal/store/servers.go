package store

// servers.go holds what makes upgrades loud and safe for servers sharing
// an archive (docs/operations.md, "Upgrades"): each migration logged
// (from, to, seconds), the servers' registration (migration 00020: a row
// per running `sudoku serve`, refreshed by a heartbeat) and PostgreSQL's
// application_name per connection, and the gate that refuses to migrate
// while a server of an older schema still uses the database. The
// migrations before 00020 were not written to be survived by the servers
// of the schema before them (00012 changed the primary keys that their
// ON CONFLICT clauses name), so the gate keeps a newer binary from
// breaking an older server's writes in the middle of a rolling upgrade.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/version"
)

// OpenOptions are what OpenWith takes beyond the database's name.
type OpenOptions struct {
	// Logger receives a line for each migration applied (from, to,
	// seconds) and one for the whole upgrade; nil logs nothing.
	Logger *slog.Logger
	// ForceMigrate migrates even while servers of an older schema use the
	// database (they may fail until they are upgraded).
	ForceMigrate bool
	// Migrating, when set, is called as the migrations from from to to
	// begin (from 0: a new database), and they wait for it to return:
	// serve's port says "migrating" meanwhile, and a test holds the
	// migration open to see it.
	Migrating func(from, to int64)

	// HoldStartup keeps PostgreSQL's start-up lock (startlock.go) after
	// Open returns, until EndStartup: the caller's own start-up writes
	// (withdrawing old grades, measuring again) then run before those
	// of the next server starting on the database, not beside them.
	HoldStartup bool

	// schema, when set, is the newest migration applied: a test's server
	// of an older binary.
	schema int64
}

// schemaOf is the newest migration an Open with o applies in dialect d.
func (o OpenOptions) schemaOf(d dialect) int64 {
	if o.schema > 0 {
		return o.schema
	}
	return knownSchema(d)
}

// waitedKey carries how long an Open on PostgreSQL waited for the
// start-up lock (startlock.go) to upgrade, which logs it.
type waitedKey struct{}

// optionsKey carries the OpenOptions from OpenWith to the dialects' open
// functions through the context they already take.
type optionsKey struct{}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dsn string, opts OpenOptions) (*DB, error) {
	return Open(context.WithValue(ctx, optionsKey{}, opts), dsn)
}

// openOptions returns the options OpenWith put in ctx (none from Open).
func openOptions(ctx context.Context) OpenOptions {
	o, _ := ctx.Value(optionsKey{}).(OpenOptions)
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// serversSchema is the migration that made the servers table.
const serversSchema = 20

// Heartbeat is how often a server refreshes its row of the servers table;
// a row not refreshed for serverStale is of a server that is gone.
const (
	Heartbeat   = 15 * time.Second
	serverStale = 4 * Heartbeat
)

// ErrOlderServers is matched (errors.Is) by the error Open returns when it
// has migrations to apply while servers of an older schema use the
// database.
var ErrOlderServers = errors.New("older servers are using the database")

// OlderServersError names the servers (or unidentified connections) that
// kept Open from migrating.
type OlderServersError struct {
	From, To int64
	Servers  []string
}

func (e *OlderServersError) Error() string {
	return fmt.Sprintf("the schema needs migrating from %d to %d, but older servers are using the database: %s; "+
		"stop (or upgrade) them first, or migrate anyway with serve --force-migrate (SUDOKU_FORCE_MIGRATE=1): they would then fail until upgraded",
		e.From, e.To, strings.Join(e.Servers, "; "))
}

// Is makes errors.Is(err, ErrOlderServers) true.
func (e *OlderServersError) Is(target error) bool { return target == ErrOlderServers }

// knownSchema is the newest migration this binary carries, for either
// dialect (they are numbered in step).
func knownSchema(d dialect) int64 {
	names, _ := fs.Glob(d.fs, "*.sql")
	var known int64
	for _, name := range names {
		num, _, _ := strings.Cut(name, "_")
		if n, err := strconv.ParseInt(num, 10, 64); err == nil {
			known = max(known, n)
		}
	}
	return known
}

// hostname is this machine's name, for the servers table and
// application_name.
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}

// AppName is what this process calls itself to PostgreSQL
// (application_name, at most 63 bytes) and in the servers table:
// sudoku/<version>/s<schema>/<host>:<pid>. The schema, the newest
// migration the binary carries, is what the gate of a newer binary reads.
func AppName(schema int64) string {
	ver := version.Get().Short()
	host, pid := hostname(), strconv.Itoa(os.Getpid())
	head := "sudoku/"
	tail := "/s" + strconv.FormatInt(schema, 10) + "/"
	room := 63 - len(head) - len(tail) - len(pid) - 1
	if len(ver) > room/2 {
		ver = ver[:room/2]
	}
	if len(host) > room-len(ver) {
		host = host[:room-len(ver)]
	}
	return head + ver + tail + host + ":" + pid
}

// schemaOfAppName reads the schema back from an application_name made by
// AppName; ok is false for any other name.
func schemaOfAppName(name string) (int64, bool) {
	parts := strings.Split(name, "/")
	if len(parts) < 4 || parts[0] != "sudoku" || !strings.HasPrefix(parts[2], "s") {
		return 0, false
	}
	n, err := strconv.ParseInt(parts[2][1:], 10, 64)
	return n, err == nil
}

// upgrade applies the migrations after current up to known one by one,
// logging each (from, to, seconds) and the whole, after the gate
// (olderServers) lets it. A new database (current 0) is made in one line.
// A server that waited for another's start-up (startlock.go) says so
// instead: it finds the schema migrated.
func (db *DB) upgrade(ctx context.Context, p *goose.Provider, current, known int64) error {
	opts := openOptions(ctx)
	log := opts.Logger.With(slog.String("db", db.path))
	if waited, _ := ctx.Value(waitedKey{}).(time.Duration); waited > 0 {
		log.Info("waited for another server's start-up on the database", slog.Int64("schema", current), seconds(waited))
	}
	if current >= known {
		return nil
	}
	if current > 0 && !opts.ForceMigrate {
		older, err := db.olderServers(ctx, current, known)
		if err != nil {
			return fmt.Errorf("look for older servers before migrating: %w", err)
		}
		if len(older) > 0 {
			return &OlderServersError{From: current, To: known, Servers: older}
		}
	}
	if current > 0 {
		found, err := db.leftovers(ctx, p, current, known)
		if err != nil {
			return fmt.Errorf("look for a newer schema's tables before migrating: %w", err)
		}
		if len(found) > 0 {
			return restoredOverError(current, found)
		}
		log.Warn("migrating the database schema: back it up first if you may want to roll back (docs/operations.md)",
			slog.Int64("from", current), slog.Int64("to", known))
	}
	if opts.Migrating != nil {
		opts.Migrating(current, known)
	}
	start, from := time.Now(), current
	for _, src := range p.ListSources() {
		if src.Version <= from || src.Version > known {
			continue
		}
		t := time.Now()
		rs, err := p.UpTo(ctx, src.Version)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		for _, r := range rs {
			if current > 0 {
				log.Info("migration applied", slog.Int64("from", from), slog.Int64("to", r.Source.Version),
					seconds(time.Since(t)))
			}
			from = r.Source.Version
		}
	}
	// A new archive's schema is no upgrade: the command says it made
	// the archive (DEBUG has the schema's line).
	msg, level := "database schema migrated", slog.LevelInfo
	switch {
	case from == current:
		// Another process (a second command on SQLite, which has no
		// start-up lock) applied them while this one waited for the
		// file's lock: nothing was migrated here.
		msg = "database schema migrated by another process"
	case current == 0:
		msg, level = "database schema created", slog.LevelDebug
	}
	log.Log(ctx, level, msg, slog.Int64("from", current), slog.Int64("to", known), seconds(time.Since(start)))
	return nil
}

// seconds is d as the attribute "seconds", to the millisecond.
func seconds(d time.Duration) slog.Attr {
	return slog.Float64("seconds", math.Round(d.Seconds()*1000)/1000)
}
