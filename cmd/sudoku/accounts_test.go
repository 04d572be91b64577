package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestUserNamesAndTokens: `sudoku user` finds a name by its key (ÉMILE is
// émile), refuses a mixed-script name with the reason, lists a user's
// tokens (ids and dates, never a token), revokes one (audited), and
// passwd says what it did with sessions and tokens.
func TestUserNamesAndTokens(t *testing.T) { eachArchive(t, testUserNamesAndTokens) }

func testUserNamesAndTokens(t *testing.T, db string) {
	user := func(stdin string, args ...string) (string, string, error) {
		return runCmd(t, stdin, append([]string{"user", "--db", db}, args...)...)
	}
	if _, _, err := user("long enough password\n", "--create", "add", "émile"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := user("long enough password\n", "add", "ÉMILE"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("add ÉMILE beside émile: %v, want taken", err)
	}
	if _, _, err := user("long enough password\n", "add", "p\u0430ypal"); exitCode(err) != 2 || !strings.Contains(err.Error(), "one script") {
		t.Errorf("add a mixed-script name: %v, want a usage error naming the scripts", err)
	}
	if out, _, err := user("", "role", "ÉMILE", "moderator"); err != nil || !strings.Contains(out, "moderator") {
		t.Fatalf("role ÉMILE: %q, %v", out, err)
	}
	checkUserTokens(t, db, user)
}

// checkUserTokens: tokens, revoke and passwd of émile, with the audit.
func checkUserTokens(t *testing.T, db string, user func(string, ...string) (string, string, error)) {
	for range 2 {
		if _, _, err := user("", "token", "Émile"); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := user("", "tokens", "ÉMILE")
	rows := regexp.MustCompile(`(?m)^(\d+)\s+\S+\s+never$`).FindAllStringSubmatch(out, -1)
	if err != nil || len(rows) != 2 || strings.Contains(out, "sdk_") {
		t.Fatalf("tokens: %q, %v; want two never used, no token", out, err)
	}
	for _, bad := range []string{"01", "+1", "x"} {
		if _, _, err := user("", "revoke", "émile", bad); exitCode(err) != 2 {
			t.Errorf("revoke %s: %v, want a usage error", bad, err)
		}
	}
	if out, _, err := user("", "revoke", "ÉMILE", rows[0][1]); err != nil || !strings.Contains(out, "revoked API token "+rows[0][1]+" of émile") {
		t.Errorf("revoke: %q, %v", out, err)
	}
	if _, _, err := user("", "revoke", "émile", rows[0][1]); exitCode(err) != 1 || !strings.Contains(err.Error(), "no API token") {
		t.Errorf("revoke twice: %v, want an error", err)
	}
	out, _, err = user("another long password\n", "passwd", "ÉMILE")
	if err != nil || !strings.Contains(out, "0 sessions ended; 1 API token kept") {
		t.Errorf("passwd: %q, %v; want it to say the sessions ended and the token kept", out, err)
	}
	d, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	es, err := d.Audit(context.Background(), 0, 10)
	if err != nil || len(es) == 0 || es[0].Action != moderation.ActionTokenRevoke || es[0].PlayerName != "émile" || es[0].Detail != "token "+rows[0][1] {
		t.Errorf("the revocation's audit entry: %+v, %v", es, err)
	}
	for _, e := range es {
		if e.PlayerName != "" && e.PlayerName != "émile" {
			t.Errorf("the audit names %q for émile's account", e.PlayerName)
		}
	}
}

// TestAttemptsImportStrict: fractional seconds are rounded as the finish
// API rounds them, a line repeating a key is refused (not recorded for
// the last value), and the bad lines are reported in line order whatever
// pass found them.
func TestAttemptsImportStrict(t *testing.T) { eachArchive(t, testAttemptsImportStrict) }

func testAttemptsImportStrict(t *testing.T, db string) {
	file := filepath.Join(t.TempDir(), "plays.jsonl")
	line := func(player, puzzle, seconds, at string) string {
		return `{"player": "` + player + `", "puzzle": "` + puzzle + `", "seconds": ` + seconds + `, "outcome": "solved", "at": "` + at + `"}`
	}
	in := strings.Join([]string{
		line("eve", "55"+easy[2:], "5", "2026-01-01T00:00:00Z"), // a bad puzzle: found by the second pass
		line("ann", easy, "612.3", "2026-01-02T10:00:00Z"),
		`{"player": "ann", "player": "admin", "puzzle": "` + easy + `", "seconds": 5, "outcome": "solved", "at": "2026-01-03T10:00:00Z"}`,
		`not json`,
	}, "\n") + "\n"
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "attempts", "import", "--db", db, "--create", file)
	if err != nil {
		t.Fatalf("attempts import: %v (stderr %q)", err, errOut)
	}
	if m := attemptsSummaryRE.FindStringSubmatch(out); m == nil || strings.Join(m[1:], " ") != "1 1 1 3" {
		t.Fatalf("summary %q, want 1 attempt, 1 player, 1 puzzle, 3 rejected", out)
	}
	if !strings.Contains(errOut, file+`:3: invalid attempt: the key "player" appears twice`) {
		t.Errorf("stderr lacks the repeated key of line 3:\n%s", errOut)
	}
	var lines []int
	for _, m := range regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(file)+`:(\d+):`).FindAllStringSubmatch(errOut, -1) {
		n, _ := strconv.Atoi(m[1])
		lines = append(lines, n)
	}
	if len(lines) != 3 || lines[0] != 1 || lines[1] != 3 || lines[2] != 4 {
		t.Errorf("bad lines reported as %v, want 1, 3, 4 in that order:\n%s", lines, errOut)
	}
	if p := exportedPuzzle(t, db, 1); p["median_seconds"] != 612.0 {
		t.Errorf("the imported 612.3 seconds: median %v, want 612", p["median_seconds"])
	}
}
