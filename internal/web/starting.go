package web

import (
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Front is the HTTP server on the public port from the moment it is bound.
// A server used to bind its port and then open its archive (migrate it,
// wait for PostgreSQL, measure its rows again after an upgrade) before it
// answered anything: for up to minutes, connections were accepted and
// never answered, /readyz included, and nothing said why (issue 50). The
// Front answers at once instead: 503 with Retry-After and what start-up is
// doing (Starting), to every request, until Serve hands the port to the
// Server, which then answers on the same connections' listener without a
// gap.
type Front struct {
	srv    *http.Server
	ln     net.Listener
	phase  atomic.Pointer[string]
	ready  atomic.Pointer[Server]
	served chan error // what the http.Server's Serve returned
}

// startingRetry is the Retry-After of a request answered while the server
// starts.
const startingRetry = 5 * time.Second

// StartFront starts answering on ln: 503 until a Server takes over
// (Server.ServeFront). cfg gives the connections' timeouts (those Serve
// would give) and the logger.
func StartFront(ln net.Listener, cfg Config) *Front {
	f := &Front{ln: ln, served: make(chan error, 1)}
	f.Starting("starting")
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	rt := cfg.RequestTimeout
	if rt <= 0 {
		rt = DefaultRequestTimeout
	}
	f.srv = &http.Server{
		Handler:           f,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		// Long enough for the slowest request the timeout middleware lets run.
		WriteTimeout:   rt + 10*time.Second,
		IdleTimeout:    idleTimeout,
		MaxHeaderBytes: maxHeaderBytes,
		ErrorLog:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnContext:    withConn, // the export bounds its send buffer (exportconn.go)
		// Request contexts are deliberately not derived from the serve
		// context: a shutdown must let in-flight submissions finish, not
		// cancel them.
	}
	go func() { f.served <- f.srv.Serve(ln) }()
	return f
}

// Starting says what start-up is doing now ("migrating the database
// schema from 17 to 25"): the 503s answer it until the Server takes over.
func (f *Front) Starting(what string) { f.phase.Store(&what) }

// Close stops answering (start-up failed) and closes the listener; after
// Server.ServeFront it does nothing more than ServeFront did.
func (f *Front) Close() { f.srv.Close() }

// ServeHTTP answers through the Server once it has taken over, with 503
// before.
func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s := f.ready.Load(); s != nil {
		s.ServeHTTP(w, r)
		return
	}
	msg := "the server is starting: " + *f.phase.Load()
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(startingRetry/time.Second)))
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if isAPIPath(r.URL.Path) {
		b, _ := json.Marshal(errorBody{Error: msg})
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write(append(b, '\n'))
		return
	}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte(msg + "\n"))
}
