package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"github.com/sudoku-archive/sudoku/internal/version"
)

// olderServers lists what uses the database with a schema older than
// known, for the gate of upgrade: servers of the servers table seen
// lately (both stores, from migration 00020 on) and, on PostgreSQL, the
// other connections to the database whose application_name names an
// older schema or nothing at all (servers before this table set none).
// Other clients (psql, pg_dump, ...) name themselves and are left alone.
func (db *DB) olderServers(ctx context.Context, current, known int64) ([]string, error) {
	self := AppName(db.schema) // this process's own connections and row
	// While Open migrates, only the writer is open; afterwards (tests)
	// the SQLite writer's one connection is the writer goroutine's.
	q := db.writer
	if db.reader != nil {
		q = db.reader
	}
	var older []string
	listed := map[int64]bool{} // the pids of this machine's rows listed
	if current >= serversSchema {
		rows, err := q.QueryContext(ctx, db.d.sql(`SELECT id, version, host, pid, schema_version, seen_at FROM servers
WHERE seen_at >= ? AND schema_version < ? AND id <> ? ORDER BY id`), time.Now().Add(-serverStale).Unix(), known, self)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id, ver, host string
			var pid, schema, seen int64
			if err := rows.Scan(&id, &ver, &host, &pid, &schema, &seen); err != nil {
				return nil, err
			}
			older = append(older, fmt.Sprintf("sudoku %s on %s (pid %d, schema %d), seen %s ago",
				ver, host, pid, schema, time.Since(time.Unix(seen, 0)).Round(time.Second)))
			if host == hostname() {
				listed[pid] = true
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	if !db.d.postgres {
		return append(older, holdersOf(db.path, current, listed)...), nil
	}
	conns, err := db.olderConnections(ctx, q, self, known)
	return append(older, conns...), err
}

// holdersOf is olderServers' look at the processes of this machine that
// have the SQLite archive at path open (issue 50, item 8: a newer
// `sudoku export` migrated an archive under the older server serving
// it, which then failed every request): the sudoku programs among them
// (and those whose command line cannot be read) not already listed from
// the servers table, and not of this very executable (a second command
// of this binary). Other programs (sqlite3, a backup tool) are left
// alone, as psql is on PostgreSQL.
func holdersOf(path string, current int64, listed map[int64]bool) []string {
	var older []string
	for _, pid := range fileHolders(path) {
		if listed[int64(pid)] || sameProgram(pid) {
			continue
		}
		cmd, sudoku := commandLine(pid)
		switch {
		case cmd == "":
			older = append(older, fmt.Sprintf("process %d has the archive open (its command line cannot be read)", pid))
		case sudoku:
			older = append(older, fmt.Sprintf("%q (pid %d) has the archive open, a sudoku of schema %d or older (unregistered: built before migration 00020, or no server)",
				cmd, pid, current))
		}
	}
	return older
}

// olderConnections is olderServers' look at PostgreSQL's connections.
func (db *DB) olderConnections(ctx context.Context, q *sql.DB, self string, known int64) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT coalesce(application_name, ''), coalesce(host(client_addr), 'a local socket'), backend_start
FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
ORDER BY backend_start`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var older []string
	for rows.Next() {
		var name, from string
		var since time.Time
		if err := rows.Scan(&name, &from, &since); err != nil {
			return nil, err
		}
		schema, ours := schemaOfAppName(name)
		switch {
		case name == self, ours && schema >= known:
		case ours:
			older = append(older, fmt.Sprintf("%s (schema %d) connected from %s", name, schema, from))
		case name == "":
			older = append(older, fmt.Sprintf("a connection without application_name from %s since %s (sudoku servers before migration 00020 set none; give any other program an application_name)",
				from, since.UTC().Format(time.RFC3339)))
		}
	}
	return older, rows.Err()
}

// KeepRegistered records this server in the servers table (its version,
// commit and schema), refreshes its row every Heartbeat until ctx is done,
// then removes it. A failed write is handed to onErr and tried again at
// the next beat: the registration only informs the gate of a newer
// binary.
func (db *DB) KeepRegistered(ctx context.Context, onErr func(error)) {
	known := db.schema
	id := AppName(known)
	v := version.Get()
	started := time.Now().Unix()
	beat := func() error {
		now := time.Now().Unix()
		return db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
			if _, err := tx.Exec(db.d.sql("DELETE FROM servers WHERE seen_at < ?"), now-int64(24*time.Hour/time.Second)); err != nil {
				return err
			}
			_, err := tx.Exec(db.d.sql(`INSERT INTO servers (id, host, pid, version, commit_id, schema_version, started_at, seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`),
				id, hostname(), int64(os.Getpid()), v.Version, v.Commit, known, started, now)
			return err
		})
	}
	t := time.NewTicker(Heartbeat)
	defer t.Stop()
	for {
		if err := beat(); err != nil && ctx.Err() == nil {
			onErr(fmt.Errorf("register in the servers table: %w", err))
		}
		select {
		case <-ctx.Done():
			stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			err := db.writeIn(stop, oneShard, func(tx *sql.Tx) error {
				_, err := tx.Exec(db.d.sql("DELETE FROM servers WHERE id = ?"), id)
				return err
			})
			if err != nil {
				onErr(fmt.Errorf("leave the servers table: %w", err))
			}
			return
		case <-t.C:
		}
	}
}

// A Server is one row of the servers table.
type Server struct {
	ID      string    `json:"id"`
	Host    string    `json:"host"`
	PID     int64     `json:"pid"`
	Version string    `json:"version"`
	Commit  string    `json:"commit"`
	Schema  int64     `json:"schema"`
	Started time.Time `json:"started"`
	Seen    time.Time `json:"seen"`
}

// Servers lists the servers seen within the last minute, by id.
func (db *DB) Servers(ctx context.Context) ([]Server, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql(`SELECT id, host, pid, version, commit_id, schema_version, started_at, seen_at
FROM servers WHERE seen_at >= ? ORDER BY id`), time.Now().Add(-serverStale).Unix())
	if err != nil {
		return nil, describe(err)
	}
	defer rows.Close()
	var out []Server
	for rows.Next() {
		var s Server
		var started, seen int64
		if err := rows.Scan(&s.ID, &s.Host, &s.PID, &s.Version, &s.Commit, &s.Schema, &started, &seen); err != nil {
			return nil, err
		}
		s.Started, s.Seen = time.Unix(started, 0).UTC(), time.Unix(seen, 0).UTC()
		out = append(out, s)
	}
	return out, rows.Err()
}

// Schema returns the schema version of the database and the newest this
// binary carries: they are equal once the archive is migrated (/readyz).
func (db *DB) Schema(ctx context.Context) (current, known int64, err error) {
	if db.isClosed() {
		return 0, 0, ErrClosed
	}
	var v sql.NullInt64
	if err := db.reader.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&v); err != nil {
		return 0, 0, describe(fmt.Errorf("read schema version: %w", err))
	}
	return v.Int64, db.schema, nil
}
