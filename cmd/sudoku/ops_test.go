package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/version"
	"github.com/sudoku-archive/sudoku/migrations"
)

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, err := runCmd(t, "", args...)
		if err != nil || strings.TrimSpace(out) != version.Get().String() || !strings.Contains(out, " go1.") {
			t.Errorf("sudoku %s = %q, %v", args[0], out, err)
		}
	}
	out, _, err := runCmd(t, "", "version", "--json")
	var v version.Info
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v != version.Get() {
		t.Errorf("sudoku version --json = %q, %v", out, err)
	}
}

// flagLineRE is a flag's line in a command's --help: its name and the
// placeholder of its value, if any.
var flagLineRE = regexp.MustCompile(`(?m)^  -([a-z-]+)(?: (.*))?$`)

// TestHelpPlaceholders: no flag's value is shown as "value" (a flag.Value
// without a `NAME` in its usage) or as words a backquote in the usage made
// a placeholder ("-graders sudoku import").
func TestHelpPlaceholders(t *testing.T) {
	for _, c := range commands {
		var stderr bytes.Buffer
		e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr}
		if err := dispatch(context.Background(), e, []string{c.name, "--help"}); err != nil {
			t.Fatalf("%s --help: %v", c.name, err)
		}
		for _, m := range flagLineRE.FindAllStringSubmatch(stderr.String(), -1) {
			if p := m[2]; p == "value" || strings.Contains(p, " ") {
				t.Errorf("sudoku %s --help: -%s %s", c.name, m[1], p)
			}
		}
	}
}

// serveFlagNames are the flags `sudoku serve --help` lists.
func serveFlagNames(t *testing.T) []string {
	var stderr bytes.Buffer
	e := &env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr}
	if err := dispatch(context.Background(), e, []string{"serve", "--help"}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range flagLineRE.FindAllStringSubmatch(stderr.String(), -1) {
		names = append(names, m[1])
	}
	if len(names) < 10 {
		t.Fatalf("serve --help lists %d flags:\n%s", len(names), stderr.String())
	}
	return names
}

// TestServeEnvDocumented: every flag of serve is in docs/operations.md's
// table with its variable.
func TestServeEnvDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range serveFlagNames(t) {
		row := "| `--" + name + "` | `" + envName(name) + "` |"
		if !bytes.Contains(doc, []byte(row)) {
			t.Errorf("docs/operations.md has no row %q", row)
		}
	}
}

func TestServeFlagsFromEnv(t *testing.T) {
	vars := map[string]string{
		"SUDOKU_RATE_LIMIT": "3.5", "SUDOKU_GRADERS": "1", "SUDOKU_SIGNUPS": "false", "SUDOKU_LOG_FORMAT": "json",
		"SUDOKU_TRUSTED_PROXY": "10.0.0.0/8", "SUDOKU_DAILY": "0", "SUDOKU_LOG_LEVEL": "debug", "SUDOKU_LICENCE": "CC0",
	}
	e := &env{getenv: func(k string) string { return vars[k] }, stderr: &bytes.Buffer{}}
	cfg, err := parseServeFlags(e, []string{"--graders", "2"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.web.RateLimit != 3.5 || cfg.graders != 2 || !cfg.web.ClosedSignups || cfg.logFormat != "json" ||
		len(cfg.web.TrustedProxies) != 1 || !cfg.web.NoDaily || cfg.logLevel != slog.LevelDebug || cfg.web.Licence != "CC0" {
		t.Errorf("config from the environment (--graders 2 beating SUDOKU_GRADERS=1): %+v", cfg)
	}
	vars["SUDOKU_GRADERS"] = "many"
	_, err = parseServeFlags(e, nil)
	var u errUsage
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "SUDOKU_GRADERS") {
		t.Errorf("a bad SUDOKU_GRADERS: %v, want a usage error naming it", err)
	}
}

func TestEffectiveSettingsMasked(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.String("db", "postgres://sudoku:hunter2@db.example/sudoku", "")
	fs.String("csrf-secret", "hunter2", "")
	fs.Int("graders", 3, "")
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("starting", effectiveSettings(fs)...)
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "graders=3") {
		t.Errorf("settings logged as %q", b.String())
	}
}

// TestServeStartupLog: serve's first line gives the build and every
// setting.
func TestServeStartupLog(t *testing.T) {
	s := startServe(t, sqliteArchive(t), "--rate-limit", "7")
	s.stop()
	first, _, _ := strings.Cut(s.logs.String(), "\n")
	for _, want := range []string{"msg=starting", "version=" + version.Get().Version, "settings.rate-limit=7", "settings.signups=true", "settings.db="} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
}

// TestUpgradeLogsFollowFormat: opening an archive of an older schema with
// rows of an older engine logs each migration and the re-measure through
// serve's logger, as JSON under --log-format json; nothing else is
// written.
func TestUpgradeLogsFollowFormat(t *testing.T) {
	path := sqliteArchive(t) // migrated, then taken down to 17 below
	if _, _, err := runCmd(t, easy+"\n", "import", "--db", path, "-"); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(context.Background(), 17); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE puzzles SET engine_version = 'old'"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	var stderr, logs bytes.Buffer
	e := &env{getenv: func(string) string { return "" }, stderr: &stderr, logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	db, err := openArchive(context.Background(), e, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	msgs := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("a line not JSON: %q", l)
		}
		msgs[m["msg"].(string)] = true
	}
	for _, want := range []string{"migration applied", "database schema migrated", "measuring puzzles with a newer engine (interrupt at any time; the next start resumes)", "puzzles measured again"} {
		if !msgs[want] {
			t.Errorf("no %q line in %s", want, logs.String())
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("plain lines beside the log: %q", stderr.String())
	}
}

func TestPlayersPruneCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sudoku.db")
	if _, _, err := runCmd(t, "", "players", "prune", "--anonymous", "--older-than", "90d", "--db", path); err == nil || exitCode(err) != 1 {
		t.Errorf("prune of a missing archive: %v, want exit 1", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("prune made an archive")
	}
	sqliteArchiveAt(t, path)
	if _, _, err := runCmd(t, easy+"\n", "import", "--db", path, "-"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"players", "prune", "--older-than", "90d"},
		{"players", "prune", "--anonymous", "--older-than", "2h"},
		{"players", "prune", "--anonymous"},
		{"players", "--anonymous", "--older-than", "90d"},
	} {
		if _, _, err := runCmd(t, "", append(args, "--db", path)...); exitCode(err) != 2 {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	out, _, err := runCmd(t, "", "players", "prune", "--anonymous", "--older-than", "90d", "--db", path)
	if err != nil || !strings.HasPrefix(out, "pruned 0 anonymous players not seen since "+time.Now().Add(-90*24*time.Hour).UTC().Format(time.DateOnly)) {
		t.Errorf("prune: %q, %v", out, err)
	}
}

func TestParseAge(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"90d", 90 * 24 * time.Hour}, {"36h", 36 * time.Hour}, {"1d", 24 * time.Hour},
		{"", 0}, {"0d", 0}, {"12h", 0}, {"-3d", 0}, {"9999d", 0}, {"d", 0}, {"1.5d", 0},
	} {
		got, err := parseAge(tc.in)
		if got != tc.want || (err == nil) != (tc.want > 0) {
			t.Errorf("parseAge(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestCopyShowsGrades(t *testing.T) {
	for col, want := range map[string]string{"grade": "10.1", "grade_ep": "10.1", "clues": "101"} {
		if got := showColumn(col, int64(101)); got != want {
			t.Errorf("showColumn(%s, 101) = %q, want %q", col, got, want)
		}
	}
}
