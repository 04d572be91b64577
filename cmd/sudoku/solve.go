package main

import (
	"context"
	"errors"
)

// runSolve is built by the engine work (issue 2).
func runSolve(ctx context.Context, e *env, args []string) error {
	return errors.New("solve: not yet built")
}
