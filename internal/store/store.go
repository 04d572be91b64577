// Package store keeps the puzzle archive in one SQLite file, or in a
// PostgreSQL database that several servers may share.
//
// A *DB holds two connection pools: a single writer connection, owned by
// one goroutine that commits concurrent submissions together (group
// commit), and a read-only pool for listings. The schema lives in the
// migrations package and is applied by goose when the archive is opened.
// The two databases run the same code; what differs between them is one
// dialect value (dialect.go).
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// ErrFull is returned (wrapped) by writes that failed because the disk or the
// database is full. Nothing of the failed write is kept; writes succeed again
// once there is room, without reopening.
var ErrFull error = &UnavailableError{msg: "database or disk is full", retry: time.Minute, kind: record.KindFull}

// ErrBusy is returned (wrapped) by writes that gave up waiting for SQLite's
// write lock, held by another connection to the file (a `sudoku import`, a
// sqlite3 session, a second server) for longer than writerBusyTimeout.
// Nothing of the failed write is kept; it is an expected, temporary state.
var ErrBusy error = &UnavailableError{msg: "database is locked by another process", retry: 2 * time.Second, kind: record.KindBusy}

// ErrClosed is returned by calls made after Close.
var ErrClosed error = &UnavailableError{msg: "store is closed", retry: 5 * time.Second, kind: record.KindUnavailable}

// UnavailableError is the type of the errors that mean the archive cannot
// take a request right now but may later: ErrFull, ErrBusy, ErrClosed.
// Callers match them with errors.Is; each says its kind (record.KindOf),
// which a server answers with 503.
type UnavailableError struct {
	msg   string
	retry time.Duration
	kind  record.Kind
}

func (e *UnavailableError) Error() string { return e.msg }

// Kind is what the error means: record.KindBusy, KindFull or KindUnavailable.
func (e *UnavailableError) Kind() record.Kind { return e.kind }

// RetryAfter is how long a client should wait before it tries again.
func (e *UnavailableError) RetryAfter() time.Duration { return e.retry }

// ErrInvalidQuery is returned (wrapped) by List for a query outside
// docs/api.md's: an unknown sort or band, a limit outside 1..record.MaxLimit, a
// filter the listing does not take. It is of record.KindInvalid (400,
// exit 2): the asker can mend the query.
var ErrInvalidQuery error = kindError{"invalid list query", record.KindInvalid}

// kindError is a sentinel error that knows its kind (record.Classified).
type kindError struct {
	msg  string
	kind record.Kind
}

func (e kindError) Error() string { return e.msg }

// Kind is what the error means to whoever asked.
func (e kindError) Kind() record.Kind { return e.kind }

// ErrInvalidPuzzle is returned (wrapped) by Submit and SubmitMany for a
// puzzle that cannot be archived as it is: no givens, an incomplete solution,
// a solution that contradicts the givens, or measures out of range.
var ErrInvalidPuzzle = errors.New("invalid puzzle")

// ErrSchemaTooNew is matched (errors.Is) by the error Open returns for a
// database migrated by a newer version of this program.
var ErrSchemaTooNew = errors.New("database schema is newer than this binary")

// SchemaVersionError reports a database whose schema version is newer than
// the newest migration this binary carries.
type SchemaVersionError struct {
	DB, Known int64
}

func (e *SchemaVersionError) Error() string {
	return fmt.Sprintf("database schema version %d is newer than this binary knows (%d): upgrade sudoku", e.DB, e.Known)
}

// Is makes errors.Is(err, ErrSchemaTooNew) true.
func (e *SchemaVersionError) Is(target error) bool { return target == ErrSchemaTooNew }

// busyTimeout is how long a reading connection waits for a lock held by
// another process (say `sudoku import` next to `sudoku serve`) before
// SQLITE_BUSY; in WAL mode readers rarely wait at all.
const busyTimeout = "10000"

// writerBusyTimeout is how long the writer waits for the write lock. It is
// well under a server's 10 s request timeout: the writer serves submissions
// one group commit after another, so a lock held elsewhere must fail the
// commit waiting for it (ErrBusy, answered 503) soon enough for the
// submissions queued behind it to be answered within their own timeout
// too. A busy server or import holds the lock for a commit at a time
// (milliseconds, a few hundred for a large import batch), far less than
// this. It is a variable so tests can shorten it.
var writerBusyTimeout = 2 * time.Second

// DB is the puzzle archive. Its methods are safe for concurrent use.
type DB struct {
	path   string // for messages: the file, or the URL without its password
	d      dialect
	writer *sql.DB   // one connection, used only by the writer goroutine
	wconn  *sql.Conn // SQLite: that connection, held for the life of the DB
	upsert stmt
	reader *sql.DB // read-only pool
	// walkTechniques makes every technique listing walk its order's index
	// (techniques.go), for the tests of that way.
	walkTechniques bool
	// exportLimit and exportAge, when set, replace exportBatch and
	// exportSnapshot (exportread.go), for the tests of the batches.
	exportLimit int
	exportAge   time.Duration

	getStmt     *sql.Stmt
	countStmt   *sql.Stmt
	linkStmts   []stmt // the statements that file new rows under their classes (link)
	findClass   stmt   // a class's first entry by canonical key
	findClasses stmt   // the same for many keys
	known       *knownClasses
	// shard is the counter shard the writer tries first on PostgreSQL
	// (see lockShards), one of counterShards chosen at random.
	shard       int64
	listMu      sync.Mutex
	listStmts   map[string]*sql.Stmt // listing pages and exports, by their SQL (see stmtOf)
	listPending map[string]bool      // statements being prepared in the background
	listClosed  bool                 // set by Close: prepare no more
	listWG      sync.WaitGroup       // the background preparations

	mu      sync.RWMutex // guards closed against sends on ops
	closed  bool
	ops     chan *op
	stopped chan struct{} // closed when the writer goroutine returns

	closeOnce sync.Once
	closeErr  error

	// bulk is whether the writer's cache is grown for bulk writes; only
	// the writer goroutine uses it.
	bulk bool

	// batches and batched count group commits and the submissions they
	// carried, for the benchmarks.
	batches, batched atomic.Int64

	finishes finishQueue  // attempts finished together (attempts.go)
	sessions sessionQueue // PostgreSQL: sessions' players read together (sessionread.go)
	seen     seenMarks    // the players whose seen_at this server wrote this hour (seen.go)

	claims claims // PostgreSQL: the session holding grading claims (claims.go)

	// schema is the newest migration this DB applies and calls its own
	// (knownSchema, or less for the tests' older servers: OpenOptions).
	schema int64
	// start is PostgreSQL's start-up lock while it is held (startlock.go).
	startMu sync.Mutex
	start   *startLock
}

// Open opens the archive at dsn and applies every migration it lacks, each
// in its own transaction. dsn is a postgres:// or postgresql:// URL for a
// PostgreSQL database (which must exist), else the name of an SQLite file,
// created if it is missing.
func Open(ctx context.Context, dsn string) (*DB, error) {
	open := openSQLite
	if IsPostgres(dsn) {
		open = openPostgres
	}
	db, err := open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(dsn), err)
	}
	return db, nil
}

func openSQLite(ctx context.Context, path string) (_ *DB, err error) {
	if path == "" {
		return nil, errors.New("no database path")
	}
	fresh, err := prepareFile(path)
	if err != nil {
		return nil, err
	}
	if fresh {
		// Removed again if it cannot be opened: a typo leaves no file.
		defer func() {
			if err != nil {
				removeNew(path)
			}
		}()
	} else {
		defer privateOnceOpen(ctx, path, &err)
	}
	db := &DB{path: path, d: sqliteDialect, ops: make(chan *op, 4*maxBatch), stopped: make(chan struct{}), listStmts: make(map[string]*sql.Stmt), listPending: make(map[string]bool), known: newKnownClasses()}
	db.schema = openOptions(ctx).schemaOf(db.d)
	defer func() {
		if err != nil {
			db.closePools()
		}
	}()

	// Pragmas go in the DSN so that every connection the pool opens gets
	// them; busy_timeout first, so the journal_mode switch waits for a lock
	// instead of failing. synchronous=FULL makes each commit durable on
	// power loss, not only on a process crash.
	name := "file:" + (&url.URL{Path: path}).EscapedPath()
	db.writer, err = sql.Open("sqlite", name+"?_txlock=immediate"+
		"&_pragma=busy_timeout("+strconv.FormatInt(writerBusyTimeout.Milliseconds(), 10)+")"+
		"&_pragma=journal_mode(WAL)"+
		"&_pragma=synchronous(FULL)"+
		"&_pragma=foreign_keys(1)"+
		"&_pragma=cache_size("+strconv.Itoa(writerCache)+")"+
		"&_pragma=wal_autocheckpoint("+strconv.Itoa(writerCheckpoint)+")"+
		"&_pragma=journal_size_limit("+strconv.Itoa(walLimit)+")"+
		"&_pragma=temp_store(MEMORY)")
	if err != nil {
		return nil, err
	}
	db.writer.SetMaxOpenConns(1)
	if err := db.writer.PingContext(ctx); err != nil {
		return nil, describe(err)
	}
	if err := checkWritable(ctx, db.writer); err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		return nil, err
	}
	db.wconn, err = db.writer.Conn(ctx)
	if err != nil {
		return nil, describe(err)
	}
	if err := db.prepareWrites(ctx); err != nil {
		return nil, err
	}

	// Readers never write, so mode=ro; WAL lets them read while the
	// writer commits. They need no _txlock: a read transaction never
	// upgrades to a write.
	db.reader, err = sql.Open("sqlite", name+"?mode=ro"+
		"&_pragma=busy_timeout("+busyTimeout+")"+
		"&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, err
	}
	if err := db.startReaders(ctx); err != nil {
		return nil, err
	}

	go db.writeLoop()
	return db, nil
}

// startReaders sizes the read pool, checks that it answers and prepares
// its statements.
func (db *DB) startReaders(ctx context.Context) error {
	n := max(4, 2*runtime.GOMAXPROCS(0))
	db.reader.SetMaxOpenConns(n)
	db.reader.SetMaxIdleConns(n)
	if err := db.reader.PingContext(ctx); err != nil {
		return describe(err)
	}
	return db.prepareReads(ctx)
}

// openPostgres opens the archive in the PostgreSQL database at dsn. The
// writer is a pool of one connection (reconnected if the server restarts)
// and runs its statements by text: pgx prepares each once per connection.
// Every write transaction begins by locking counter shards (see tx.go).
func openPostgres(ctx context.Context, dsn string) (_ *DB, err error) {
	db := &DB{path: Redact(dsn), d: postgresDialect, ops: make(chan *op, 4*maxBatch), stopped: make(chan struct{}), listStmts: make(map[string]*sql.Stmt), listPending: make(map[string]bool), known: newKnownClasses(),
		shard: 1 + mrand.Int64N(counterShards)}
	opts := openOptions(ctx)
	db.schema = opts.schemaOf(db.d)
	defer func() {
		if err != nil {
			db.closePools()
		}
	}()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	// Every connection says which server it is (pg_stat_activity, and
	// the gate of a newer binary: servers.go), unless the URL names it.
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = AppName(db.schema)
	}
	// Servers starting together take turns (startlock.go): the version is
	// read, and the schema migrated, by one at a time.
	var waited time.Duration
	if db.start, waited, err = takeStartLock(ctx, cfg, opts.Logger.With(slog.String("db", db.path))); err != nil {
		return nil, describe(err)
	}
	ctx = context.WithValue(ctx, waitedKey{}, waited)
	// The writer waits for a lock held by another server's (or an
	// import's) transaction as long as SQLite's writer waits for the
	// file's: see writerBusyTimeout.
	w := cfg.Copy()
	w.RuntimeParams["lock_timeout"] = strconv.FormatInt(writerBusyTimeout.Milliseconds(), 10)
	// An acknowledged submission is on disk: whatever the server's
	// default, the writer's commits wait for the WAL flush.
	w.RuntimeParams["synchronous_commit"] = "on"
	db.writer = stdlib.OpenDB(*w)
	db.writer.SetMaxOpenConns(1)
	db.claims.cfg = cfg.Copy()
	// The graders' claims read their rows by id (claims.go); PostgreSQL
	// found the generic plan dearer than a custom one and planned the read
	// again at every claim (0.35 ms each, 0.28 claims a submission with
	// four servers: issue 36). Its generic plan is an index walk by id.
	db.claims.cfg.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	if err := db.writer.PingContext(ctx); err != nil {
		return nil, describe(err)
	}
	if err := db.migrate(ctx); err != nil {
		return nil, err
	}
	if !opts.HoldStartup {
		db.EndStartup()
	}
	if err := db.prepareWrites(ctx); err != nil {
		return nil, err
	}
	r := cfg.Copy()
	r.RuntimeParams["default_transaction_read_only"] = "on"
	// A listing's statements are prepared once and run with new values
	// each time; PostgreSQL would plan each of the first runs again (over
	// a millisecond for the five arms of a merged order), and keep doing so
	// when the generic plan's estimate looks worse. Every listing is an
	// index walk whatever its values, so the generic plan is the plan: a
	// page 10,001 deep by solve time went from 1.7 ms to 0.9 ms.
	r.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	db.reader = stdlib.OpenDB(*r)
	if err := db.startReaders(ctx); err != nil {
		return nil, err
	}
	go db.writeLoop()
	return db, nil
}

// A stmt is a statement of the writer. On SQLite it is prepared once on
// the writer connection and run there directly, inside the transaction the
// connection has open (SQLite's transactions belong to the connection):
// through tx.Stmt, database/sql would prepare a statement of a *sql.Conn
// again for every transaction, which cost a commit more than its rows. On
// PostgreSQL it is run by text in the transaction, and pgx prepares it once
// per connection.
type stmt struct {
	q  string    // in the dialect's SQL
	st *sql.Stmt // SQLite: prepared on the writer connection
}

// prepare makes the writer's statement of q.
func (db *DB) prepare(ctx context.Context, q string) (stmt, error) {
	s := stmt{q: db.d.sql(q)}
	if db.wconn == nil {
		return s, nil
	}
	var err error
	s.st, err = db.wconn.PrepareContext(ctx, s.q)
	return s, err
}

func (s stmt) query(tx *sql.Tx, args ...any) (*sql.Rows, error) {
	if s.st != nil {
		return s.st.Query(args...)
	}
	return tx.Query(s.q, args...)
}

func (s stmt) queryRow(tx *sql.Tx, args ...any) *sql.Row {
	if s.st != nil {
		return s.st.QueryRow(args...)
	}
	return tx.QueryRow(s.q, args...)
}

func (s stmt) exec(tx *sql.Tx, args ...any) (sql.Result, error) {
	if s.st != nil {
		return s.st.Exec(args...)
	}
	return tx.Exec(s.q, args...)
}

func (s stmt) close() error {
	if s.st == nil {
		return nil
	}
	return s.st.Close()
}

// prepareWrites prepares the writer's statements.
func (db *DB) prepareWrites(ctx context.Context) error {
	var err error
	if db.upsert, err = db.prepare(ctx, upsertSQL); err != nil {
		return fmt.Errorf("prepare upsert: %w", err)
	}
	if db.findClass, err = db.prepare(ctx, findClassSQL); err != nil {
		return fmt.Errorf("prepare class lookup: %w", err)
	}
	if db.findClasses, err = db.prepare(ctx, findClassesSQL(db.d)); err != nil {
		return fmt.Errorf("prepare class lookup: %w", err)
	}
	for _, q := range linkSQL(db.d) {
		st, err := db.prepare(ctx, q)
		if err != nil {
			return fmt.Errorf("prepare link: %w", err)
		}
		db.linkStmts = append(db.linkStmts, st)
	}
	return nil
}

// checkWritable fails if SQLite opened the file read-only. It does that
// silently when the file is not writable but the journal allows reading, and
// every write would then fail, long after start-up.
func checkWritable(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return describe(err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ IsReadOnly(string) (bool, error) })
		if !ok {
			return nil
		}
		ro, err := c.IsReadOnly("main")
		if err != nil {
			return err
		}
		if ro {
			return errors.New("database is read-only (check the permissions of the file and its directory)")
		}
		return nil
	})
}

// migrate brings the schema up to the newest embedded migration, refusing a
// database that is already past it.
func (db *DB) migrate(ctx context.Context) error {
	var opts []goose.ProviderOption
	if db.d.postgres {
		// Servers starting together on a new database take turns.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(db.d.goose, db.writer, db.d.fs, opts...)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	// Provider.Close would close db: it is not called.
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return describe(fmt.Errorf("read schema version: %w", err))
	}
	known := db.schema
	if current > known {
		return &SchemaVersionError{DB: current, Known: known}
	}
	if err := db.upgrade(ctx, p, current, known); err != nil { // servers.go
		return describe(err)
	}
	if known >= 18 {
		if err := db.keyNames(ctx); err != nil { // migration 00018's keys, made in Go
			return err
		}
	}
	if known >= 25 {
		return db.skeletonNames(ctx) // migration 00025's skeletons, made in Go from the keyed names
	}
	return nil
}

// Close waits for every submission already queued to be committed and
// answered, then closes the database. Calls after Close fail with
// ErrClosed.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.mu.Lock()
		db.closed = true
		close(db.ops)
		db.mu.Unlock()
		<-db.stopped
		db.closeErr = db.closePools()
	})
	return db.closeErr
}

// closePools closes whatever open managed to open. The readers go first, so
// that the writer is the last connection: SQLite then checkpoints the WAL
// into the main file and removes it.
func (db *DB) closePools() error {
	var errs []error
	db.claims.close()
	db.EndStartup()
	db.listMu.Lock()
	db.listClosed = true
	for _, s := range db.listStmts {
		errs = append(errs, s.Close())
	}
	db.listMu.Unlock()
	for _, s := range []*sql.Stmt{db.getStmt, db.countStmt} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	for _, s := range append([]stmt{db.upsert, db.findClass, db.findClasses}, db.linkStmts...) {
		errs = append(errs, s.close())
	}
	if db.reader != nil {
		errs = append(errs, db.reader.Close())
	}
	db.listWG.Wait() // their PrepareContext fails once the pool is closed
	if db.wconn != nil {
		errs = append(errs, db.wconn.Close())
	}
	if db.writer != nil {
		errs = append(errs, db.writer.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close %s: %w", db.path, err)
	}
	return nil
}

// Ping reports whether the database answers a query.
func (db *DB) Ping(ctx context.Context) error {
	if db.isClosed() {
		return ErrClosed
	}
	var total int64
	if err := db.countStmt.QueryRowContext(ctx).Scan(&total, new(int64), new(int64), new(int64)); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}

func (db *DB) isClosed() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.closed
}

// secretName is the settings row of Secret.
const secretName = "csrf-secret"

// Secret returns the archive's secret: 32 random bytes made by the first
// call on a new archive and kept in it, so that every server sharing the
// archive signs (CSRF tokens) with the same key. Of two servers making it
// at once, the first to commit wins and both return its bytes.
func (db *DB) Secret(ctx context.Context) ([]byte, error) {
	return db.keptSecret(ctx, secretName, 32, "secret")
}

// keptSecret returns the secret kept in the settings row name: size
// random bytes made by the first call on the archive and the same ever
// after, for every server on it. Of two servers making it at once, the
// first to commit wins and both return its bytes. what names the secret
// in errors.
func (db *DB) keptSecret(ctx context.Context, name string, size int, what string) ([]byte, error) {
	fresh := make([]byte, size)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("make %s: %w", what, err)
	}
	var secret []byte
	err := db.write(ctx, func(tx *sql.Tx) error {
		// The first server to get here makes it; the others read it.
		if _, err := tx.Exec(db.d.sql(db.d.insertIgnore+" settings (name, value) VALUES (?, ?)"+db.d.ignoreTail), name, fresh); err != nil {
			return err
		}
		return tx.QueryRow(db.d.sql("SELECT value FROM settings WHERE name = ?"), name).Scan(&secret)
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(secret) != size {
		return nil, fmt.Errorf("read %s: %d bytes, want %d", what, len(secret), size)
	}
	return secret, nil
}
