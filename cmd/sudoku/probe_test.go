package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
)

// TestServeRefusesNonNumbers: every number a user gives the server is
// read by the one reader of user numbers. NaN, infinities, exponents,
// hexadecimal and signs in a grade filter are a 400 that says why, on the
// API, the history page and the export, on both databases; before, NaN
// answered 200 and dropped the filter. Ids not written the one way ("+1",
// "01") name no puzzle.
func TestServeRefusesNonNumbers(t *testing.T) { eachArchive(t, testServeRefusesNonNumbers) }

func testServeRefusesNonNumbers(t *testing.T, db string) {
	s := startServe(t, db, "--rate-limit", "0")
	var p puzzleJSON
	if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &p); res.StatusCode != http.StatusCreated {
		t.Fatalf("submit: status %d", res.StatusCode)
	}
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e1", "0x8", "+7", "7.", "0.5", "12.5", " "} {
		for _, path := range []string{"/api/puzzles", "/puzzles", "/api/export"} {
			for _, param := range []string{"grade_min", "grade_max"} {
				u := s.url + path + "?" + param + "=" + url.QueryEscape(v)
				res, err := http.Get(u)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusBadRequest {
					t.Errorf("%s: status %d, want 400: %.200s", u, res.StatusCode, b)
					continue
				}
				if !strings.Contains(string(b), "grades run from 1.0 to 12.0") {
					t.Errorf("%s: the answer does not state the grade scale: %.300s", u, b)
				}
			}
		}
	}
	for _, id := range []string{"+1", "01", "1.0", "%201"} {
		if res := call(t, "GET", s.url+"/api/puzzles/"+id, "", nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("/api/puzzles/%s: status %d, want 404", id, res.StatusCode)
		}
	}
	if res := call(t, "GET", s.url+"/api/puzzles/1", "", nil); res.StatusCode != http.StatusOK {
		t.Errorf("/api/puzzles/1: status %d", res.StatusCode)
	}
	for _, q := range []string{"around=+1", "around=01", "limit=+5", "limit=05", "limit=0x10"} {
		if res := call(t, "GET", s.url+"/puzzles?"+q, "", nil); res.StatusCode != http.StatusBadRequest {
			t.Errorf("/puzzles?%s: status %d, want 400", q, res.StatusCode)
		}
	}
}

// TestCLIRefusesNonNumbers: the command's numeric flags refuse NaN,
// infinities and numbers not written plainly, exit 2 with the reason;
// before, `generate --grade nan-8` printed a puzzle.
func TestCLIRefusesNonNumbers(t *testing.T) {
	for _, args := range [][]string{
		{"generate", "--grade", "nan-8"},
		{"generate", "--grade", "NaN"},
		{"generate", "--grade", "2-inf"},
		{"generate", "--grade", "1e0-8"},
		{"generate", "--grade", "3-20"},
		{"generate", "--count", "0x10"},
		{"generate", "--count", "+2"},
		{"import", "--max-nodes", "1e9", "-"},
		{"serve", "--rate-limit", "NaN"},
		{"serve", "--rate-limit", "Inf"},
		{"serve", "--rate-limit", "-1"},
	} {
		stdout, stderr, err := runCmd(t, "", args...)
		if exitCode(err) != 2 || stdout != "" {
			t.Errorf("%q: exit %d (%v), stdout %q", args, exitCode(err), err, stdout)
			continue
		}
		if msg := err.Error() + stderr; !strings.Contains(msg, "invalid") {
			t.Errorf("%q: no reason given: %s", args, msg)
		}
	}
	if _, _, err := runCmd(t, "", "generate", "--grade", "nan-8"); err == nil || !strings.Contains(err.Error(), "NaN is not a number") {
		t.Errorf("generate --grade nan-8: %v", err)
	}
}

// TestReadingCommandsRefuseMissingArchive: a mistyped --db used to become
// a new, empty archive. Reading commands refuse it (exit 1, one line, no
// file left behind); writing ones create it and say so in one line.
func TestReadingCommandsRefuseMissingArchive(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "sudoku-typo.db")
	for _, args := range [][]string{
		{"export", "--db", missing},
		{"backup", "--db", missing, filepath.Join(dir, "out.db")},
		{"copy", "--from", missing, "--to", filepath.Join(dir, "to.db")},
		{"user", "--db", missing, "add", "admin2", "--role", "admin"},
		{"user", "--db", missing, "list"},
		{"user", "--db", missing, "passwd", "admin2"},
		{"user", "--db", missing, "role", "admin2", "admin"},
		{"user", "--db", missing, "token", "admin2"},
		{"audit", "--db", missing},
		{"ratings", "refit", "--db", missing},
		{"attempts", "import", "--db", missing, "-"},
	} {
		stdout, stderr, err := runCmd(t, "long enough password\n", args...)
		if exitCode(err) != 1 || stdout != "" || !strings.Contains(err.Error(), "no archive at "+missing) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: exit %d, err %v, stdout %q, stderr %q", args, exitCode(err), err, stdout, stderr)
		}
		if _, serr := os.Stat(missing); serr == nil {
			t.Fatalf("%q created %s", args, missing)
		}
	}

	fresh := filepath.Join(dir, "new.db")
	_, stderr, err := runCmd(t, easy+"\n", "import", "--db", fresh, "-")
	if err != nil || strings.Count(stderr, "created a new archive at "+fresh+"\n") != 1 {
		t.Errorf("import into a new file: %v, stderr %q", err, stderr)
	}
	_, stderr, err = runCmd(t, easy+"\n", "import", "--db", fresh, "-")
	if err != nil || strings.Contains(stderr, "created") {
		t.Errorf("import into the same file again: %v, stderr %q", err, stderr)
	}
	if out, _, err := runCmd(t, "", "export", "--db", fresh); err != nil || !strings.Contains(out, easy) {
		t.Errorf("export of an existing archive: %v, %q", err, out)
	}
	served := filepath.Join(dir, "served.db")
	s := startServe(t, served, "--rate-limit", "0")
	s.stop()
	if !strings.Contains(s.logs.String(), `msg="created a new archive" db=`+served+"\n") {
		t.Errorf("serve on a new file did not say it created it:\n%s", s.logs)
	}
}

// TestAdminCommandsCreateOnlyWithCreate: `user` and `attempts import`
// write, but a typo in their --db once put an admin into a stray file:
// they make a new archive only when asked with --create, and say so.
func TestAdminCommandsCreateOnlyWithCreate(t *testing.T) {
	dir := t.TempDir()
	users := filepath.Join(dir, "users.db")
	_, stderr, err := runCmd(t, "long enough password\n", "user", "--db", users, "--create", "add", "root", "--role", "admin")
	if err != nil || !strings.Contains(stderr, "created a new archive at "+users) {
		t.Fatalf("user --create add: %v, stderr %q", err, stderr)
	}
	if out, _, err := runCmd(t, "", "user", "--db", users, "list"); err != nil || !strings.Contains(out, "root") {
		t.Errorf("user list after --create: %v, %q", err, out)
	}
	plays := filepath.Join(dir, "plays.db")
	line := `{"player": "ann", "puzzle": "` + easy + `", "seconds": 300, "outcome": "solved", "hints": 0, "at": "2026-01-02T03:04:05Z"}` + "\n"
	if _, stderr, err := runCmd(t, line, "attempts", "import", "--db", plays, "-"); err == nil || !strings.Contains(err.Error(), "attempts import --create") {
		t.Errorf("attempts import without --create: %v, stderr %q", err, stderr)
	}
	if out, stderr, err := runCmd(t, line, "attempts", "import", "--db", plays, "--create", "-"); err != nil || !strings.Contains(out, "imported 1 attempts") {
		t.Errorf("attempts import --create: %v, %q, stderr %q", err, out, stderr)
	}
}

// TestEmptyFileIsNoArchive: a 0-byte file named by --db is refused with a
// one-line error that says what it is, and left as it was; before, SQLite
// took it for an empty database and it became an archive.
func TestEmptyFileIsNoArchive(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", "--db", empty},
		{"import", "--db", empty, "-"},
		{"serve", "--addr", "127.0.0.1:0", "--db", empty},
	} {
		_, _, err := runCmd(t, easy+"\n", args...)
		if exitCode(err) != 1 || !strings.Contains(err.Error(), "empty file (0 bytes), not an SQLite database") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: exit %d: %v", args, exitCode(err), err)
		}
		if fi, err := os.Stat(empty); err != nil || fi.Size() != 0 {
			t.Fatalf("%q changed the file: %v", args, err)
		}
	}
}

// TestServeDailyChosenAheadGetsOnlyRead: `sudoku serve` chooses today's
// and yesterday's puzzles in the background; GETs of the puzzle of the day
// only read. On a server just started the first GET of today's and
// yesterday's puzzles answers 200, never 503 (issue 34: it waits the
// moment the keeper takes); tomorrow's is in no list, export, search or
// /daily?date= before its day (404 saying when it opens). A flood of GETs
// for dates no keeper chose (404) leaves the archive's row count as it
// was, on both databases.
func TestServeDailyChosenAheadGetsOnlyRead(t *testing.T) { eachArchive(t, testServeDailyChosenAhead) }

func testServeDailyChosenAhead(t *testing.T, db string) {
	s := startServe(t, db, "--rate-limit", "0", "--daily=true")
	now := time.Now().UTC()
	yesterday := now.AddDate(0, 0, -1).Format(time.DateOnly)
	tomorrow := now.AddDate(0, 0, 1).Format(time.DateOnly)
	var today, last puzzleJSON
	if res := call(t, "GET", s.url+"/api/daily", "", &today); res.StatusCode != http.StatusOK {
		t.Fatalf("today's puzzle on a fresh server: status %d", res.StatusCode)
	}
	if res := call(t, "GET", s.url+"/api/daily?date="+yesterday, "", &last); res.StatusCode != http.StatusOK {
		t.Fatalf("yesterday's puzzle on a fresh server: status %d", res.StatusCode)
	}
	if today.ID == 0 || last.ID == 0 || today.ID == last.ID {
		t.Fatalf("today %d, yesterday %d", today.ID, last.ID)
	}
	testTomorrowNowhere(t, s.url, db, tomorrow)
	var before, after struct{ Total int64 }
	call(t, "GET", s.url+"/api/puzzles?limit=1", "", &before)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			date := time.Date(2026, 1, 2+i%20, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
			path := "/api/daily?date=" + date
			if i%2 == 1 {
				path = "/daily?date=" + date
			}
			if res := call(t, "GET", s.url+path, "", nil); res.StatusCode != http.StatusNotFound {
				t.Errorf("%s: status %d, want 404", path, res.StatusCode)
			}
		}()
	}
	wg.Wait()
	call(t, "GET", s.url+"/api/puzzles?limit=1", "", &after)
	if before.Total != after.Total || before.Total != 2 {
		t.Errorf("puzzles archived: %d before the GETs, %d after; want today's and yesterday's", before.Total, after.Total)
	}
	var again puzzleJSON
	if call(t, "GET", s.url+"/api/daily", "", &again); again.ID != today.ID {
		t.Errorf("today's puzzle changed from %d to %d", today.ID, again.ID)
	}
}

// testTomorrowNowhere: tomorrow's puzzle of the day (the one the keeper
// will choose) is in no list, export, search or /daily?date= yet.
func testTomorrowNowhere(t *testing.T, url, db, tomorrow string) {
	t.Helper()
	date, _ := time.Parse(time.DateOnly, tomorrow)
	secret, err := openStore(t, db).DailySecret(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	next, err := daily.Puzzle(t.Context(), secret, date, 0)
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Error string }
	if res := call(t, "GET", url+"/api/daily?date="+tomorrow, "", &e); res.StatusCode != http.StatusNotFound || !strings.Contains(e.Error, "opens at 00:00 UTC") {
		t.Errorf("tomorrow's puzzle: status %d, %q", res.StatusCode, e.Error)
	}
	givens := next.Givens.String()
	for _, path := range []string{"/api/export?format=txt", "/api/puzzles?limit=100", "/", "/puzzles", "/puzzles?sort=submitted"} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Contains(string(body), givens) {
			t.Errorf("%s shows tomorrow's puzzle of the day", path)
		}
	}
}
