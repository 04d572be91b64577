package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/userinput"
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

// envSources records which flags of a flag set took their value from
// the environment, so that a later check of the value names what the
// operator wrote: the variable, not a flag never typed.
type envSources map[string]bool

// name is how the operator gave flag name: its variable or --name.
func (s envSources) name(flag string) string {
	if s[flag] {
		return envName(flag)
	}
	return "--" + flag
}

// flagsFromEnv sets every flag of fs that the command line did not set
// from its environment variable, when that is set and not empty. A value
// the flag refuses is a usage error naming the variable (and why, in the
// variable's words: never only the flag package's "parse error").
func flagsFromEnv(fs *flag.FlagSet, getenv func(string) string) (envSources, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	from := envSources{}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		v := getenv(envName(f.Name))
		if err != nil || given[f.Name] || v == "" {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = errUsage{fmt.Sprintf("invalid %s %s: %s", envName(f.Name), userinput.Echo(v), envReason(f, serr))}
			return
		}
		from[f.Name] = true
	})
	return from, err
}

// envReason says why flag f refused a variable's value: the reason of the
// project's readers (userinput.InputError) without its flag name, or what the
// flag package's own flags take.
func envReason(f *flag.Flag, err error) string {
	var ie *userinput.InputError
	if errors.As(err, &ie) {
		return ie.Reason
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "use true or false (or 1 or 0)"
	}
	if _, derr := time.ParseDuration(f.DefValue); derr == nil && fmt.Sprintf("%T", f.Value) == "*flag.durationValue" {
		return "use a duration such as 30s, 2m or 0"
	}
	return err.Error()
}

// notFlagVars are SUDOKU_ variables that are no flag of serve but are read
// by the tests, the benchmarks and make (CONTRIBUTING.md): serve does not
// warn of them.
var notFlagVars = map[string]bool{
	"SUDOKU_PG_BIN": true, "SUDOKU_BROWSER": true, "SUDOKU_AXE": true, "SUDOKU_AXE_DIR": true,
	"SUDOKU_BENCH_ARCHIVE": true, "SUDOKU_BENCH_PG_ARCHIVE": true, "SUDOKU_BENCH_PG_ROWS": true,
	"SUDOKU_NEXT_ARCHIVE": true, "SUDOKU_BUILD_ARCHIVE": true, "SUDOKU_BUILD_ROWS": true,
}

// unknownEnv returns a warning for each SUDOKU_ variable of environ that
// no flag of fs reads: a misspelt variable was ignored silently, its
// setting lost (issue 50). Each names the closest flag's variable.
func unknownEnv(fs *flag.FlagSet, environ []string) []string {
	known := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { known[envName(f.Name)] = f.Name })
	var warnings []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "SUDOKU_") || known[name] != "" || notFlagVars[name] {
			continue
		}
		best, dist := "", -1
		for v := range known {
			if d := editDistance(name, v); dist < 0 || d < dist || d == dist && v < best {
				best, dist = v, d
			}
		}
		warnings = append(warnings, fmt.Sprintf("%s is not read by serve: did you mean %s (--%s)?", name, best, known[best]))
	}
	slices.Sort(warnings)
	return warnings
}

// editDistance is the Levenshtein distance of a and b (bytes: the
// variables are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
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
