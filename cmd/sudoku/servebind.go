package main

import (
	"fmt"
	"log/slog"
	"net"
)

// listenServe binds serve's addresses, --addr and --metrics-addr (nil
// when it is empty), first: an address that cannot be listened on (taken,
// bogus) fails the command at once with the reason, before the archive is
// opened or any grader starts.
func listenServe(cfg serveConfig) (ln, mln net.Listener, err error) {
	ln, err = net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: listen on %s: %w", cfg.addr, err)
	}
	if mln, err = listenMetrics(cfg.metricsAddr); err != nil {
		ln.Close()
		return nil, nil, err
	}
	return ln, mln, nil
}

// closeAll closes the listeners that are not nil.
func closeAll(lns ...net.Listener) {
	for _, ln := range lns {
		if ln != nil {
			ln.Close()
		}
	}
}

// warnEnv logs the SUDOKU_ variables no flag reads (unknownEnv), after
// the start-up line that gives the settings they failed to change.
func warnEnv(cfg serveConfig) {
	for _, w := range cfg.envWarnings {
		cfg.web.Logger.Warn("environment", slog.String("warning", w))
	}
}
