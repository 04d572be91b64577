package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestServeRefusesNonNumbers: every number a user gives the server is
// read by the one reader of user numbers. NaN, infinities, exponents,
// hexadecimal and signs in a grade filter are a 400 that says why, on the
// API, the history page and the export, on both databases; before, NaN
// answered 200 and dropped the filter. Ids not written the one way ("+1",
// "01") name no puzzle.
func TestServeRefusesNonNumbers(t *testing.T) { eachDatabase(t, testServeRefusesNonNumbers) }

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
