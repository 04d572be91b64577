// Package web is the HTTP face of the archive: the JSON API and the HTML
// pages, served by echo. It depends on the archive only through the
// interfaces it declares, handed to New by name in Parts; cmd/sudoku sets
// every part to its *store.DB.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/version"
)

// Archive is what the server needs of the puzzle store.
type Archive interface {
	// Submit archives p (givens already solved and measured). If its givens
	// are archived already, it bumps their submission count instead and
	// returns the stored puzzle with duplicate true. It returns only once the
	// change is durably committed.
	Submit(ctx context.Context, p record.Puzzle) (stored record.Puzzle, duplicate bool, err error)
	// Puzzle returns one puzzle, or record.ErrNotFound.
	Puzzle(ctx context.Context, id int64) (record.Puzzle, error)
	// List returns one page, or record.ErrInvalidCursor.
	List(ctx context.Context, q record.ListQuery) (record.Page, error)
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Stats returns the archive's counts and histograms, read from
	// maintained counters: its cost does not grow with the archive.
	Stats(ctx context.Context) (record.Stats, error)
	// PuzzleByGivens returns the archived puzzle with exactly these givens,
	// or record.ErrNotFound.
	PuzzleByGivens(ctx context.Context, givens sudoku.Grid) (record.Puzzle, error)
	// ByCanonical returns the first archived puzzle whose canonical form is
	// c (the same puzzle, written another way), or record.ErrNotFound.
	ByCanonical(ctx context.Context, c sudoku.Grid) (record.Puzzle, error)
	// Equivalents returns the archived entries of p's class in id order,
	// its first entry first (p's own included).
	Equivalents(ctx context.Context, p record.Puzzle) ([]record.Puzzle, error)
	// Daily returns the puzzle of the day recorded for date (YYYY-MM-DD),
	// or record.ErrNotFound.
	Daily(ctx context.Context, date string) (record.Puzzle, error)
	// SetDaily records the archived p as date's puzzle unless the date has
	// one, and returns the date's puzzle; record.ErrDailyRepeat when p is
	// another date's puzzle.
	SetDaily(ctx context.Context, date string, p record.Puzzle) (record.Puzzle, error)
	// DailySecret returns the archive's secret the puzzles of the day are
	// derived from (made once, kept in the archive, never shown).
	DailySecret(ctx context.Context) ([]byte, error)
	// SubmitMany archives ps in one durable transaction, like Submit for
	// each; duplicate[i] tells which were archived already (earlier in ps
	// included). It serves the batch import and the upload form.
	SubmitMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error)
	// Export calls fn for every archived puzzle in q's order and filters
	// (Limit and Cursor ignored), stopping at fn's first error; it returns
	// an error, never nil, if it stops before the last puzzle.
	Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error
}

// Config tunes a Server. The zero value is usable.
type Config struct {
	// Archive owns the pipelines into the archive and its background jobs
	// (package archive), made by cmd/sudoku over the same store; its
	// budgets then rule, and MaxNodes, SearchSlots, SearchQueueTimeout,
	// NoDaily and Graders here are read from it. nil: the server makes
	// one over its store with those fields.
	Archive *archive.Archive
	// RateLimit is the number of writes (POSTs) per second allowed per
	// client address, with a burst of three times that; 0 turns it off.
	RateLimit float64
	// TrustedProxies lists the networks of reverse proxies whose
	// X-Forwarded-For header names the real client. With none, the client is
	// the direct peer and X-Forwarded-For is ignored: anyone can forge it.
	TrustedProxies []netip.Prefix
	// RequestTimeout bounds the work done for one request (solving,
	// database); past it the request fails with 503. 0 means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxNodes is the node budget of every search a request runs (see
	// sudoku.Options); past it the puzzle is refused as too hard (422).
	// 0 means DefaultMaxNodes.
	MaxNodes int64
	// ShutdownTimeout is how long Serve waits for in-flight requests once
	// its context is done. 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// SearchSlots is how many searches (solving, rating, tracing) run at
	// once over all requests; the others wait their turn, at most
	// SearchQueueTimeout, then get 503. 0 means one less than the cores
	// (at least one): a core is left for reads however many puzzles are
	// posted.
	SearchSlots int
	// SearchQueueTimeout bounds the wait for a search slot. 0 means
	// DefaultSearchQueueTimeout.
	SearchQueueTimeout time.Duration
	// BulkTimeout bounds a batch import or an upload (reading, rating,
	// committing), which may take far longer than RequestTimeout. 0 means
	// DefaultBulkTimeout.
	BulkTimeout time.Duration
	// ExportStall is how long an export may make no progress (the client
	// reads nothing, or the database hands no row) before it is cut off.
	// An export has no deadline for the whole response: a slow but steady
	// client gets the whole archive. 0 means DefaultExportStall.
	ExportStall time.Duration
	// NoDaily stops this server from choosing the puzzles of the day
	// ahead (the keeper of package daily, run by Serve): another server on
	// the same archive does. A read of a date nobody chose yet still has
	// it chosen here (daily.Keeper.OnDemand), never waiting on that server.
	NoDaily bool
	// CSRFSecret signs the form tokens; empty means a random one per
	// process (forms served before a restart must then be reloaded).
	CSRFSecret []byte
	// Logger receives request logs and 5xx errors; nil means slog.Default().
	Logger *slog.Logger
	// Graders grade the puzzles the server archives, after they are
	// acknowledged (see bulk.Graders): the archive wakes them after each
	// write (with Config.Archive set, they are its Graders), the server
	// tells their gate about every request it serves, and shows their
	// queue on /healthz?verbose. nil: the archive is graded
	// elsewhere (another server, `sudoku import`), the puzzles stay
	// pending meanwhile.
	Graders *bulk.Graders
	// RatingsMaxAge is how old the ratings page's figures (GET /ratings,
	// GET /api/ratings) may be before they are computed again: they read
	// and rank every rated class. 0 means DefaultRatingsMaxAge; a negative
	// value computes them at every request.
	RatingsMaxAge time.Duration
	// Licence is the licence of the archive's data (serve --licence):
	// shown on /data and at the head of a TXT export; "" says none is
	// given.
	Licence string
	// SecureCookies marks the session cookie Secure even on plain HTTP
	// (behind a proxy that ends TLS); over TLS it is always Secure.
	SecureCookies bool
	// ClosedWrites is `serve --anonymous-writes=false`: submitting,
	// importing, generating (and collections) need an account (a named
	// player's session) or an API token; playing stays open. false keeps
	// writes open to everyone.
	ClosedWrites bool
	// ClosedSignups closes sign-up (serve --signups=false): GET and POST
	// /signup answer 403 with a page that says so; accounts are made by
	// `sudoku user add`, and existing ones log in as before.
	ClosedSignups bool
	// Version is the running build (package version), shown by
	// /healthz?verbose.
	Version version.Info
	// ExportNeedsAccount is `serve --export-requires-account`: GET
	// /api/export needs an account or an API token (401 otherwise).
	ExportNeedsAccount bool
}

// Defaults for the zero fields of Config.
const (
	DefaultRequestTimeout  = 10 * time.Second
	DefaultShutdownTimeout = 15 * time.Second
	// DefaultMaxNodes is the archive's search budget (archive.DefaultMaxNodes).
	DefaultMaxNodes = archive.DefaultMaxNodes
	// DefaultSearchQueueTimeout is the archive's (archive.DefaultSearchQueueTimeout).
	DefaultSearchQueueTimeout = archive.DefaultSearchQueueTimeout
	// DefaultBulkTimeout is what a 1 MiB batch of the hardest puzzles needs
	// on one core (about 15 s) four times over: two such uploads at once,
	// sharing the search slots with single submissions, both finish.
	DefaultBulkTimeout = 2 * time.Minute
	// DefaultExportStall: a client reading at a few KB/s still progresses
	// within it; one that stopped reading holds the export (a read
	// transaction, and a connection of the reading pool) no longer.
	DefaultExportStall = 30 * time.Second
)

// BodyLimit is the largest request body accepted, in bytes, except by the
// batch import and the upload (MaxBatchBody). A puzzle, even drawn as a
// grid with separators, is well under 1 KiB.
const BodyLimit = 64 << 10

// Timeouts of the HTTP server against slow or idle clients.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// contentSecurityPolicy allows scripts, styles and images from this origin
// only and no inline script, so text a user submitted can never run.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// Parts are the archive's capabilities the server serves, each by name:
// cmd/sudoku sets every one through AllParts (a *store.DB is a Whole, so
// a method whose signature drifts is a build error, not a route gone). A
// nil part is one this server does not have: the routes
// that need it are not served (routes.go says which), and the handlers that
// merely use it when present do without.
type Parts struct {
	// Puzzles is the archive itself; it is required.
	Puzzles Archive
	// Players keeps players, sessions, tokens and attempts (players.go).
	Players Players
	// Moderation keeps flags, hidden puzzles and the audit trail
	// (moderation.go); it needs Players.
	Moderation Moderation
	// Collections keeps the collections (collections.go).
	Collections Collections
	// CollectionEditor changes and deletes collections
	// (collectionedit.go); it needs Collections.
	CollectionEditor CollectionEditor
	// Leveller serves the next puzzle at a player's level (next.go).
	Leveller Leveller
	// Ratings serves how well each measure predicts the players
	// (ratings.go).
	Ratings RatedArchive
	// Techniques is the technique index (techniques.go).
	Techniques TechniqueArchive
	// Errors says what the database's errors mean (errors.go); nil:
	// they are answered as they come.
	Errors ErrorExplainer
	// Schema tells /readyz the database's schema version (ops.go); nil:
	// ready is the Ping alone.
	Schema SchemaReader
}

// check refuses parts that cannot work together: a missing archive, or a
// part without the one it needs. It is a programming error of the caller.
func (p Parts) check() error {
	switch {
	case p.Puzzles == nil:
		return errors.New("web.New: Parts.Puzzles is required")
	case p.Moderation != nil && p.Players == nil:
		return errors.New("web.New: Parts.Moderation needs Parts.Players")
	case p.CollectionEditor != nil && p.Collections == nil:
		return errors.New("web.New: Parts.CollectionEditor needs Parts.Collections")
	}
	return nil
}

// Server serves the archive over HTTP.
type Server struct {
	echo    *echo.Echo
	archive Archive
	parts   Parts
	cfg     Config
	log     *slog.Logger
	assets  map[string]asset // static files by path under /static/

	rows map[routeKey]*route // the route table by method and path (routes.go)

	arch    *archive.Archive // the pipelines, the search gate and the background jobs
	exports *exportTurns     // turns at streaming an export (exports.go)
	writes  writeHealth      // a full disk refusing writes (health.go)
	csrf    csrfSigner
	players Players    // nil: the archive keeps no players (players.go)
	mod     Moderation // nil: the archive keeps no flags or audit (moderation.go)
	// collections is nil when the archive keeps none (collections.go).
	collections Collections
	// editor is nil when the archive cannot change collections
	// (collectionedit.go).
	editor CollectionEditor

	// leveller and rated serve the players' figures (next.go, ratings.go);
	// nil: the archive keeps none, and those routes are not served.
	leveller Leveller
	rated    RatedArchive
	// techniques: nil when the archive keeps no technique index
	// (techniques.go).
	techniques TechniqueArchive
	signer     account.Signer
	metrics    *metrics // the series MetricsHandler serves (metrics.go)
	// handling counts the requests being handled, so that Serve returns
	// only once the last handler has, even one cut off by the shutdown.
	handling sync.WaitGroup
}

// New returns a server of parts with its middleware and routes in place.
// It panics on parts that cannot work together (Parts.check): a caller's
// programming error, caught by its first test.
func New(parts Parts, cfg Config) *Server {
	if err := parts.check(); err != nil {
		panic(err)
	}
	archive := parts.Puzzles
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.BulkTimeout <= 0 {
		cfg.BulkTimeout = DefaultBulkTimeout
	}
	if cfg.ExportStall <= 0 {
		cfg.ExportStall = DefaultExportStall
	}
	if cfg.RatingsMaxAge == 0 {
		cfg.RatingsMaxAge = DefaultRatingsMaxAge
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Archive = ownArchive(parts, cfg)
	cfg.Graders = cfg.Archive.Graders()
	s := &Server{
		echo: echo.New(), archive: archive, parts: parts, cfg: cfg, log: cfg.Logger, arch: cfg.Archive,
		exports: newExportTurns(),
		csrf:    newCSRFSigner(cfg.CSRFSecret),
		signer:  account.NewSigner(cfg.CSRFSecret),
		metrics: newMetrics(cfg.Archive),
	}
	s.players, s.mod = parts.Players, parts.Moderation
	s.collections, s.editor = parts.Collections, parts.CollectionEditor
	s.leveller, s.rated, s.techniques = parts.Leveller, parts.Ratings, parts.Techniques
	e := s.echo
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = ipExtractor(cfg.TrustedProxies)
	e.SchemeExtractor = schemeExtractor(cfg.TrustedProxies)
	s.assets = loadAssets()
	s.middleware()
	s.routes()
	for _, r := range e.Routes() {
		s.metrics.routes[r.Path] = true
	}
	return s
}

// ipExtractor returns how the server tells who the client is: the direct
// peer, or with trusted proxies, the address they put in X-Forwarded-For.
func ipExtractor(proxies []netip.Prefix) echo.IPExtractor {
	if len(proxies) == 0 {
		return echo.ExtractIPDirect()
	}
	return echo.ExtractIPFromXFFHeader(trustOnly(proxies)...)
}

// schemeExtractor returns how the server tells whether the client came
// over https: the connection, or from a trusted proxy, its
// X-Forwarded-Proto. Forwarded headers count from those networks only.
func schemeExtractor(proxies []netip.Prefix) echo.SchemeExtractor {
	if len(proxies) == 0 {
		return echo.ExtractSchemeDirect()
	}
	return echo.ExtractSchemeFromHeaders(trustOnly(proxies)...)
}

// trustOnly trusts exactly the configured networks: echo would otherwise
// also trust loopback, link-local and private addresses by default.
func trustOnly(proxies []netip.Prefix) []echo.TrustOption {
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range proxies {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{
			IP:   net.IP(p.Addr().AsSlice()),
			Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen()),
		}))
	}
	return opts
}

// middleware installs what runs around every handler, outermost first.
// What differs from route to route (body limit, player, rate limit,
// timeout, gzip, upload) is declared on the route's row (routes.go) and
// read here through rowOf; the order of the chain is the same for all.
func (s *Server) middleware() {
	e := s.echo
	e.Use(s.observe)                      // outermost: it counts the status the client gets
	e.Use(requestID(), s.requestLogger()) // reqlog.go
	if g := s.cfg.Graders; g != nil && g.Gate != nil {
		e.Use(busy(g.Gate))
	}
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableStackAll:     true, // the panicking goroutine's stack is the one that matters
		DisableErrorHandler: true, // return the error: the request logger hands it to handleError
		LogErrorFunc: func(_ echo.Context, err error, stack []byte) error {
			return fmt.Errorf("panic: %w\n%s", err, stack) // handleError logs it as a 500
		},
	}))
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ContentSecurityPolicy: contentSecurityPolicy,
		ReferrerPolicy:        "same-origin",
	}))
	e.Use(s.crossOrigin())
	e.Use(s.bodyLimit())
	if s.players != nil {
		e.Use(s.loadPlayer) // before the rate limit, which counts per token
	}
	if s.cfg.RateLimit > 0 {
		e.Use(s.rateLimiter())
	}
	e.Use(s.readLane) // a read's searches take the read lane, per client (readlane.go)
	// Each route's class (routes.go) says which of the two timeouts bounds
	// it, if any: an export is a long stream with a deadline policy of its
	// own (apiExport), and bulk writes have their own timeout.
	e.Use(middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{
		Skipper: func(c echo.Context) bool { return s.rowOf(c).class.timeout != requestTimeout },
		Timeout: s.cfg.RequestTimeout,
		// handleError maps context errors itself, with a clear message.
		ErrorHandler: func(err error, _ echo.Context) error { return err },
	}))
	e.Use(middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{
		Skipper:      func(c echo.Context) bool { return s.rowOf(c).class.timeout != bulkTimeout },
		Timeout:      s.cfg.BulkTimeout,
		ErrorHandler: func(err error, _ echo.Context) error { return err },
	}))
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		// Worth it from about a kilobyte. A plain route's answer is sent as
		// it is: the export streams uncompressed (its flushes would cost
		// ratio and a core), a trace is stored compressed. A range of a
		// static file is a range of its bytes, not of a compressed stream.
		// The answers to writes are a puzzle object or a redirect, under a
		// kilobyte, and setting up a compressor for each (its tables are
		// reset even when nothing is compressed) cost a write a seventh of
		// its time.
		MinLength: 1024,
		Skipper: func(c echo.Context) bool {
			m := c.Request().Method
			return m != http.MethodGet && m != http.MethodHead ||
				s.rowOf(c).class.plain || c.Request().Header.Get("Range") != ""
		},
	}))
	e.Use(s.uploadLimit()) // before the CSRF check: it parses the form
}

// rateLimiter limits POSTs per client (an account's token, else an address,
// IPv6 by its /64) to cfg.RateLimit per second with a
// burst of three times that, and share links (GET /p/{cells}, which search
// like POST /api/solve) with them. Other reads are never limited.
func (s *Server) rateLimiter() echo.MiddlewareFunc {
	r := s.cfg.RateLimit
	burst := max(1, int(math.Ceil(3*r)))
	retryAfter := strconv.Itoa(max(1, int(math.Ceil(1/r)))) // one token regrows in 1/r s
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper: func(c echo.Context) bool { return c.Request().Method != http.MethodPost && !s.rowOf(c).class.searches },
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(r), Burst: burst, ExpiresIn: 3 * time.Minute,
		}),
		IdentifierExtractor: func(c echo.Context) (string, error) {
			if key, ok := c.Get(rateKeyKey).(string); ok {
				return key, nil // an API token's own budget
			}
			return clientAddress(c), nil // an IPv6 client by its /64, as every limit counts it
		},
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", retryAfter)
			return echo.NewHTTPError(http.StatusTooManyRequests,
				fmt.Sprintf("too many submissions or searches: at most %g per second from one address; retry after %s s", r, retryAfter))
		},
	})
}

// isAPIPath reports whether path is answered in JSON, errors included.
func isAPIPath(path string) bool {
	return path == "/api" || strings.HasPrefix(path, "/api/") || path == "/healthz" || path == "/readyz"
}

// handlerGrace is how long Serve waits, after closing the connections
// still open past the shutdown's grace period, for their handlers to
// return: a handler cut off fails its next write at once.
const handlerGrace = 5 * time.Second

// handled waits up to d for every handler to return, and says whether
// they did.
func (s *Server) handled(d time.Duration) bool {
	done := make(chan struct{})
	go func() { s.handling.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handling.Add(1)
	defer s.handling.Done()
	s.echo.ServeHTTP(w, r)
}

// ListenAndServe listens on addr (host:port; port 0 picks a free one) and
// serves until ctx is done, like Serve.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	return s.Serve(ctx, ln)
}

// Serve answers requests on ln until ctx is done, then shuts down
// gracefully: it stops accepting, lets in-flight requests finish for up to
// Config.ShutdownTimeout, and returns nil once they have. It closes ln.
// Callers that need the bound address (port 0) read it from ln.Addr().
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.ServeFront(ctx, StartFront(ln, s.cfg))
}

// ServeFront is Serve on the port f answers on already (503 while the
// server started): the server answers from now on, on the same listener.
func (s *Server) ServeFront(ctx context.Context, f *Front) error {
	srv, ln := f.srv, f.ln
	// The puzzles of the day are chosen ahead, in the background, never by
	// a request; the keeper stops with ctx and Serve waits for it, so the
	// archive is not closed under it. It starts before the first request
	// is answered, so that request waits for it (Expecting). With NoDaily
	// it chooses only the dates its readers ask for and no other server
	// has chosen.
	kctx, stopKeeper := context.WithCancel(ctx)
	kept := s.arch.Start(kctx)
	defer func() { stopKeeper(); kept() }()

	// The port, which answered 503 while the server started (Front),
	// answers through the server from now on; "listening" says so.
	f.ready.Store(s)
	s.log.Info("listening", slog.String("addr", ln.Addr().String()))
	served := f.served
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down", slog.Duration("grace", s.cfg.ShutdownTimeout))
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		// Only a long stream (an export's download) outlives the grace
		// period: it is cut, which its client sees as a broken download.
		// Nothing acknowledged depends on it, so the stop is still a
		// clean one once its handler has returned; the caller closes the
		// archive, which commits every write already queued.
		srv.Close()
		s.log.Warn("shutdown: cut the requests still running after the grace period (streaming downloads; their clients see a broken download)",
			slog.Duration("grace", s.cfg.ShutdownTimeout))
	}
	if !s.handled(handlerGrace) {
		return fmt.Errorf("shutdown: requests still running %s after the server closed", handlerGrace)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	s.log.Info("stopped")
	return nil
}
