package main

import (
	"database/sql"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
)

// runBin runs the built binary with args and returns its combined output.
func runBin(bin string, args ...string) ([]byte, error) {
	return exec.Command(bin, args...).CombinedOutput()
}

// enableStatements loads pg_stat_statements into c (a restart) and
// creates the extension in template1, so that every database made after
// has it.
func enableStatements(b *testing.B, c *pgtest.Cluster) {
	b.Helper()
	exec1 := func(name, q string) {
		db, err := sql.Open("pgx", c.URL(name))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	exec1("postgres", "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
	if err := c.Restart(); err != nil {
		b.Fatal(err)
	}
	exec1("template1", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
	// Planning too, since a statement whose generic plan PostgreSQL finds
	// dearer than its custom ones is planned again at every run; both
	// settings take effect on reload.
	exec1("postgres", "ALTER SYSTEM SET pg_stat_statements.track = 'all'")
	exec1("postgres", "ALTER SYSTEM SET pg_stat_statements.track_planning = on")
	exec1("postgres", "SELECT pg_reload_conf()")
}

// setPG sets each name=value of settings (comma-separated) in c with
// ALTER SYSTEM and reloads its configuration: settings an operator would
// make, such as commit_delay, measured by -box.pgset.
func setPG(b *testing.B, c *pgtest.Cluster, settings string) {
	b.Helper()
	if settings == "" {
		return
	}
	db, err := sql.Open("pgx", c.URL("postgres"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, kv := range strings.Split(settings, ",") {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || strings.ContainsAny(name, " ;'\"") {
			b.Fatalf("-box.pgset: %q is not name=value", kv)
		}
		if _, err := db.Exec(fmt.Sprintf("ALTER SYSTEM SET %s = '%s'", name, strings.ReplaceAll(value, "'", "''"))); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := db.Exec("SELECT pg_reload_conf()"); err != nil {
		b.Fatal(err)
	}
}

// resetStatements forgets the statements counted so far (with
// -box.statements).
func resetStatements(b *testing.B, dsn string) {
	b.Helper()
	if !*boxStmts {
		return
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	// pg_stat_reset: the tables' counts (logTables) of the run alone.
	if _, err := db.Exec("SELECT pg_stat_statements_reset(), pg_stat_reset()"); err != nil {
		b.Fatal(err)
	}
}

// logStatements logs, per request of the run (n of them), the calls and
// execution time of the 15 statements PostgreSQL spent the most time on,
// in this database (with -box.statements).
func logStatements(b *testing.B, dsn string, n int) {
	b.Helper()
	if !*boxStmts || n < 2 { // not the first run of one request
		return
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT s.calls, s.total_exec_time, s.total_plan_time, s.plans, s.rows, s.shared_blks_hit + s.shared_blks_read, s.wal_bytes, s.query FROM pg_stat_statements s
		JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()
		ORDER BY s.total_exec_time + s.total_plan_time DESC LIMIT 25`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out strings.Builder
	// Blocks and WAL bytes: the work done, which the machine's load
	// does not inflate as it does the times.
	out.WriteString("calls/req  exec-ms/req  plans/req  plan-ms/req  rows/call  blocks/req  wal-B/req  statement\n")
	for rows.Next() {
		var calls, plans, nrows, blocks int64
		var ms, planMS, wal float64
		var q string
		if err := rows.Scan(&calls, &ms, &planMS, &plans, &nrows, &blocks, &wal, &q); err != nil {
			b.Fatal(err)
		}
		q = strings.Join(strings.Fields(q), " ")
		if len(q) > 140 {
			q = q[:140] + "..."
		}
		rpc := 0.0
		if calls > 0 {
			rpc = float64(nrows) / float64(calls)
		}
		out.WriteString(strings.Join([]string{ftoa(float64(calls)/float64(n), 3), ftoa(ms/float64(n), 4), ftoa(float64(plans)/float64(n), 3), ftoa(planMS/float64(n), 4), ftoa(rpc, 1),
			ftoa(float64(blocks)/float64(n), 1), ftoa(wal/float64(n), 0), q}, "  ") + "\n")
	}
	// Printed, not logged: a benchmark's log keeps only its first lines.
	fmt.Printf("%s: PostgreSQL's statements per request, %d requests:\n%s", b.Name(), n, out.String())
	logTables(b, db, n)
}

// logTables prints, per request, the rows each table had inserted and
// updated during the run and the share of the updates that were HOT
// (no index touched), from pg_stat_user_tables (with -box.statements).
// A backend reports its counts within a second or so of its last
// transaction: the figures may miss the run's last second.
func logTables(b *testing.B, db *sql.DB, n int) {
	b.Helper()
	rows, err := db.Query(`SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
		WHERE n_tup_ins + n_tup_upd > 0 ORDER BY n_tup_ins + n_tup_upd DESC`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out strings.Builder
	out.WriteString("ins/req  upd/req  hot-%  table\n")
	for rows.Next() {
		var name string
		var ins, upd, hot int64
		if err := rows.Scan(&name, &ins, &upd, &hot); err != nil {
			b.Fatal(err)
		}
		share := "-"
		if upd > 0 {
			share = ftoa(100*float64(hot)/float64(upd), 0)
		}
		out.WriteString(strings.Join([]string{ftoa(float64(ins)/float64(n), 3), ftoa(float64(upd)/float64(n), 3), share, name}, "  ") + "\n")
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("%s: rows written per request, %d requests:\n%s", b.Name(), n, out.String())
}

func ftoa(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }
