package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/version"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// Defaults of `sudoku serve`, as docs/operations.md gives them.
const (
	defaultAddr      = "127.0.0.1:8080"
	defaultDB        = "sudoku.db"
	defaultRateLimit = 10
)

// maxGraders bounds --graders: far more than any machine's cores.
const maxGraders = 1024

// serveConfig is what `sudoku serve` was asked to do.
type serveConfig struct {
	addr      string
	db        string
	logFormat string
	logLevel  slog.Level
	graders   int
	// metricsAddr is where /metrics is served; "" serves none.
	metricsAddr string
	dbWait      time.Duration // serve --db-wait (openWaiting)
	web         web.Config
	// forceMigrate migrates the schema even while older servers use the
	// database (openArchive).
	forceMigrate bool
	// settings are every flag's effective value, for the start-up log.
	settings []any
	// envWarnings name the SUDOKU_ variables no flag reads (unknownEnv).
	envWarnings []string
}

// parseServeFlags reads the flags of `sudoku serve`. Each flag beats its
// environment variable (SUDOKU_ADDR, SUDOKU_RATE_LIMIT, ...: envflags.go),
// which beats the default.
func parseServeFlags(e *env, args []string) (serveConfig, error) {
	var cfg serveConfig
	fs := newFlagSet(e, "serve", "[--addr HOST:PORT] [--db FILE] [--rate-limit N] [--graders N] [--trusted-proxy CIDR,...] [--daily=false] [--anonymous-writes=false] [--signups=false] [--export-requires-account] [--db-wait DURATION] [--metrics-addr HOST:PORT] [--log-format json] [--log-level LEVEL]  (every flag also as SUDOKU_<FLAG>: SUDOKU_RATE_LIMIT=...)")
	fs.StringVar(&cfg.addr, "addr", envOr(e, "SUDOKU_ADDR", defaultAddr), "listen address; port 0 picks a free port (env SUDOKU_ADDR)")
	db := dbFlag(fs, e)
	rateFlagVar(fs, &cfg.web.RateLimit, "rate-limit", defaultRateLimit, "at most `N` submissions (POSTs) per second per client address (an IPv6 address by its /64) or API token, burst 3x; 0 turns the limit off")
	fs.BoolVar(&cfg.web.SecureCookies, "secure-cookies", false, "mark the session cookie Secure on plain HTTP too (behind a proxy that ends TLS)")
	anonWrites := fs.Bool("anonymous-writes", true, "let visitors without an account or token submit, import and generate; false: writes need an account (log in) or an API token, playing stays open")
	fs.DurationVar(&cfg.dbWait, "db-wait", 30*time.Second, "how long to wait at start-up for a database that cannot be reached (a PostgreSQL server still starting), trying again meanwhile; 0 gives up at once")
	fs.BoolVar(&cfg.web.ExportNeedsAccount, "export-requires-account", false, "GET /api/export only for accounts and API tokens (401 otherwise); by default visitors may export too, two at a time, one each")
	proxies := fs.String("trusted-proxy", "", "comma-separated networks (CIDR) of reverse proxies whose X-Forwarded-For names the client")
	daily := fs.Bool("daily", true, "choose the puzzles of the day (today's and the next day's, in the background); false when another server on the archive does")
	fs.StringVar(&cfg.logFormat, "log-format", "text", "log format on stderr: text or json")
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", "", "serve the Prometheus metrics at /metrics on this address of their own (host:port, e.g. 127.0.0.1:9090); empty serves none")
	fs.TextVar(&cfg.logLevel, "log-level", slog.LevelInfo, "`LEVEL` of the least important lines logged: debug (also health checks and 429s), info, warn or error")
	fs.StringVar(&cfg.web.Licence, "licence", "", "the licence of the archive's open data, shown on /data and at the head of a TXT export")
	graders := wholeFlag(fs, "graders", int64(runtime.GOMAXPROCS(0)), 0, maxGraders, "`N` background graders (default one per core): they grade new puzzles on the cores requests leave idle; 0 leaves grading to another server or to 'sudoku import'")
	signups := fs.Bool("signups", true, "let visitors create accounts (/signup); false: sign-up is closed, the page and POST /signup say so, existing accounts log in as before")
	fs.BoolVar(&cfg.forceMigrate, "force-migrate", false, "migrate the schema even while older servers are connected to the database (they may fail until they are upgraded: see docs/operations.md)")
	withEnvUsage(fs)
	if err := parseFlags(fs, args); err != nil {
		return cfg, err
	}
	from, err := flagsFromEnv(fs, e.getenv)
	if err != nil {
		return cfg, err
	}
	if e.environ != nil {
		cfg.envWarnings = unknownEnv(fs, e.environ())
	}
	cfg.settings = effectiveSettings(fs)
	cfg.db, cfg.graders = *db, int(*graders)
	cfg.web.ClosedSignups = !*signups
	cfg.web.NoDaily = !*daily
	cfg.web.ClosedWrites = !*anonWrites
	if fs.NArg() > 0 {
		return cfg, errUsage{fmt.Sprintf("serve takes no arguments, got %q", fs.Args())}
	}
	if cfg.logFormat != "text" && cfg.logFormat != "json" {
		return cfg, errUsage{fmt.Sprintf("%s %q: use text or json", from.name("log-format"), cfg.logFormat)}
	}
	for _, s := range strings.Split(*proxies, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return cfg, errUsage{fmt.Sprintf("%s %q: not a network in CIDR form such as 10.0.0.0/8", from.name("trusted-proxy"), s)}
		}
		cfg.web.TrustedProxies = append(cfg.web.TrustedProxies, p)
	}
	return cfg, nil
}

// envOr returns the environment variable name, or def when it is unset or empty.
func envOr(e *env, name, def string) string {
	if v := e.getenv(name); v != "" {
		return v
	}
	return def
}

// serveLogger is the server's logger: text or JSON (--log-format) on
// stderr, from --log-level up.
func serveLogger(e *env, cfg serveConfig) *slog.Logger {
	lo := &slog.HandlerOptions{Level: cfg.logLevel}
	if cfg.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(e.stderr, lo))
	}
	return slog.New(slog.NewTextHandler(e.stderr, lo))
}

// startFront has the port answer from now on, 503 with what start-up is
// doing until the server is ready (web.Front), and logs the start-up
// line: the address, the version, the settings.
func startFront(e *env, cfg serveConfig, ln net.Listener) *web.Front {
	front := web.StartFront(ln, cfg.web)
	e.starting = front.Starting
	v := version.Get()
	// addr is where the port answers 503 until the server is ready
	// ("listening", later).
	cfg.web.Logger.Info("starting", slog.String("addr", ln.Addr().String()), slog.String("version", v.Version), slog.String("commit", v.Commit), slog.String("go", v.Go),
		slog.Group("settings", cfg.settings...))
	warnEnv(cfg)
	return front
}

// runServe is `sudoku serve`: it serves the archive until ctx is done
// (SIGINT or SIGTERM), lets in-flight requests finish, then closes the
// database.
func runServe(ctx context.Context, e *env, args []string) (err error) {
	cfg, err := parseServeFlags(e, args)
	if err != nil {
		return err
	}
	cfg.web.Logger = serveLogger(e, cfg)
	ln, mln, err := listenServe(cfg)
	if err != nil {
		return err
	}
	defer closeAll(ln, mln)
	front := startFront(e, cfg, ln)
	defer front.Close()
	cfg.web.Version = version.Get()
	// The archive's upgrade (migrations, the engine's re-measure) logs
	// through the server's logger, in its format.
	e.logger, e.forceMigrate = cfg.web.Logger, e.forceMigrate || cfg.forceMigrate
	db, err := openWaiting(ctx, e, cfg.db, cfg.dbWait, cfg.web.Logger)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	if e.opened != nil {
		e.opened(db)
	}
	// The server's row in the servers table tells a newer binary that it
	// is here (store.KeepRegistered); it goes before the database closes.
	// It stops with the command whatever ends it: waiting for ctx alone
	// hung a server that failed after this point until a signal.
	rctx, unregister := context.WithCancel(ctx)
	registered := make(chan struct{})
	go func() {
		defer close(registered)
		db.KeepRegistered(rctx, func(err error) { cfg.web.Logger.Warn("servers table", slog.Any("err", err)) })
	}()
	defer func() { unregister(); <-registered }()
	cfg.web.Logger.Info("database open", slog.String("path", store.Redact(cfg.db)))
	e.startPhase("starting the server")
	// Forms are signed with the archive's secret, the same for every
	// server on it, so a form served by one is accepted by another (and
	// by this one after a restart).
	if cfg.web.CSRFSecret, err = db.Secret(ctx); err != nil {
		return err
	}
	// Puzzles are graded after they are acknowledged, by background
	// graders on the cores requests leave idle; the archive runs them
	// (with the keeper of the puzzles of the day) while Serve serves, and
	// on SIGTERM they stop at the next puzzle, keeping the grades they
	// finished.
	if cfg.graders > 0 {
		cfg.web.Graders = newGraders(db, cfg.graders, cfg.web.Logger)
		defer regradeInBackground(ctx, db, cfg.web.Graders, e.regradeEvery(), cfg.web.Logger)()
	}
	cfg.web.Archive = e.newArchive(archive.Options{
		Store: db, Graders: cfg.web.Graders, RunGraders: true, Rated: db, RatingsMaxAge: cfg.web.RatingsMaxAge, Techniques: db, Leveller: db,
		MaxNodes: cfg.web.MaxNodes, SearchSlots: cfg.web.SearchSlots, SearchQueueTimeout: cfg.web.SearchQueueTimeout,
		NoDaily: cfg.web.NoDaily, Log: cfg.web.Logger,
	})
	if g := cfg.web.Graders; g != nil {
		// The graders record each path's practice boards as they grade
		// it, so that practice never searches for them (issue 45).
		g.GradeCtx = cfg.web.Archive.GradeDeep
	}
	srv := web.New(web.AllParts(db), cfg.web)
	if mln != nil {
		mctx, stopMetrics := context.WithCancel(ctx)
		stopped, err := serveMetrics(mctx, mln, srv, db, cfg.web.Graders, cfg.web.Logger)
		if err != nil {
			stopMetrics()
			return err
		}
		defer func() { stopMetrics(); <-stopped }()
	}
	return srv.ServeFront(ctx, front)
}
