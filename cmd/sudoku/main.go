// Command sudoku solves Sudoku puzzles and serves the Sudoku Archive.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if err != errQuiet {
			fmt.Fprintln(os.Stderr, "sudoku:", err)
		}
		os.Exit(exitCode(err))
	}
}
