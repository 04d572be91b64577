// Command sudoku solves Sudoku puzzles and serves the Sudoku Archive.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a command gracefully: SIGTERM (systemd, docker), SIGINT
// (Ctrl-C) and SIGHUP (a closed terminal; the server has no configuration
// to reload), so that none of them kills a server uncleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	err := dispatch(ctx, &env{getenv: os.Getenv, environ: os.Environ, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	if err != nil {
		if err != errQuiet {
			fmt.Fprintln(os.Stderr, "sudoku:", err)
		}
		os.Exit(exitCode(err))
	}
}
