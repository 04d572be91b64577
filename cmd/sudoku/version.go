package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/version"
)

// runVersion is `sudoku version`: the version, the commit and the Go
// toolchain of this binary (package version), as one line or as JSON.
func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "version", "[--json]")
	asJSON := fs.Bool("json", false, "print {\"version\", \"commit\", \"go\"} as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errUsage{fmt.Sprintf("version takes no arguments, got %q", fs.Args())}
	}
	v := version.Get()
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(v)
	}
	_, err := fmt.Fprintln(e.stdout, v)
	return err
}
