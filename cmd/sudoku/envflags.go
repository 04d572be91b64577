package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/store"
)

// Every flag of `sudoku serve` may also come from the environment, as
// SUDOKU_ and the flag's name in upper snake case (--rate-limit is
// SUDOKU_RATE_LIMIT): a flag on the command line beats its variable,
// which beats the default. The mechanism walks the flag set, so a flag
// added later is covered without a line here; docs/operations.md has the
// table (TestServeEnvDocumented keeps it whole).

// envName is the environment variable of the flag name.
func envName(name string) string {
	return "SUDOKU_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// withEnvUsage ends every flag's usage with the variable it is also read
// from, unless the usage names it already.
func withEnvUsage(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(f.Usage, "(env ") {
			f.Usage += " (env " + envName(f.Name) + ")"
		}
	})
}

// flagsFromEnv sets every flag of fs that the command line did not set
// from its environment variable, when that is set and not empty. A value
// the flag refuses is a usage error naming the variable.
func flagsFromEnv(fs *flag.FlagSet, getenv func(string) string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		v := getenv(envName(f.Name))
		if err != nil || given[f.Name] || v == "" {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = errUsage{fmt.Sprintf("%s=%q (for --%s): %v", envName(f.Name), v, f.Name, serr)}
		}
	})
	return err
}

// secretFlag reports whether a flag's value must not be logged.
func secretFlag(name string) bool {
	for _, w := range []string{"secret", "password", "token", "key"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// effectiveSettings are the values of every flag of fs as the command
// runs with them (command line, environment or default), for the
// start-up log: a database URL without its password, secrets masked.
func effectiveSettings(fs *flag.FlagSet) []any {
	var attrs []any
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value.String()
		switch {
		case f.Name == "db":
			v = store.Redact(v)
		case secretFlag(f.Name) && v != "":
			v = "***"
		}
		attrs = append(attrs, slog.String(f.Name, v))
	})
	return attrs
}
