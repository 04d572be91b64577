package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserCreateOnlyForAdd: `user` offers --create only where a new
// archive has something to do, add (its first user): the other
// subcommands on a missing archive neither suggest it nor take it (it made
// an empty archive and then found no user, issue 50), and no file is made.
func TestUserCreateOnlyForAdd(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "typo.db")
	for _, args := range [][]string{{"passwd", "ann"}, {"role", "ann", "admin"}, {"list"}, {"token", "ann"}, {"tokens", "ann"}, {"revoke", "ann", "1"}} {
		_, _, err := runCmd(t, "long enough password\n", append([]string{"user", "--db", missing}, args...)...)
		if exitCode(err) != 1 || strings.Contains(err.Error(), "--create") || !strings.Contains(err.Error(), "no archive at") {
			t.Errorf("user %s on a missing archive: exit %d, %v; want the refusal without --create", args[0], exitCode(err), err)
		}
		_, _, err = runCmd(t, "long enough password\n", append([]string{"user", "--db", missing, "--create"}, args...)...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "--create is for user add") {
			t.Errorf("user --create %s: exit %d, %v; want a usage error", args[0], exitCode(err), err)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Fatalf("user %s made an archive", args[0])
		}
	}
	_, _, err := runCmd(t, "long enough password\n", "user", "--db", missing, "add", "ann")
	if err == nil || !strings.Contains(err.Error(), "user --create add creates one") {
		t.Errorf("user add on a missing archive: %v; want the --create suggestion", err)
	}
	if _, _, err := runCmd(t, "long enough password\n", "user", "--db", missing, "--create", "add", "ann"); err != nil {
		t.Errorf("user --create add: %v", err)
	}
}
