package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// copyPeople is what fillPlayers made that a test of the copy uses on the
// destination: the staff's API tokens, a session cookie of the admin
// (signed with the archive's secret), and the hidden puzzle.
type copyPeople struct {
	adminToken, modToken, cookie string
	hidden                       int64
}

// The staff's password (staff).
const staffPassword = "long enough password"

// fillPlayers adds to the archive at dsn (made by fillArchive, puzzles
// 1-20 graded) every kind of row beyond the puzzles a copy must keep:
// accounts (`sudoku user add`), an API token, sessions, anonymous
// players, attempts solved, given up, in practice and open (so ratings
// and the puzzles' players' figures), a collection, a submitter, flags
// open, hidden and dismissed, a hidden puzzle whose past puzzle of the day
// stays, deleted puzzles, a deleted account, and the audit entries of all
// that.
func fillPlayers(t *testing.T, dsn string) copyPeople {
	t.Helper()
	var c copyPeople
	c.adminToken, c.modToken = staff(t, dsn) // boss (1), admin; mia (2), moderator
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	secret, err := db.Secret(ctx)
	must(err)
	cookie, hash := account.NewSigner(secret).NewSession()
	must(db.StartSession(ctx, 1, nil, hash, time.Now().Add(time.Hour)))
	c.cookie = cookie
	var anon []int64
	for range 3 {
		_, h := account.NewSigner(secret).NewSession()
		p, err := db.NewPlayer(ctx, h, time.Now().Add(time.Hour))
		must(err)
		anon = append(anon, p.ID)
	}
	zed, err := db.AddUser(ctx, "zed", staffPassword, account.RolePlayer, moderation.CLI())
	must(err)
	play := func(player, puzzle int64, f account.Finish) {
		t.Helper()
		a, _, err := db.StartAttempt(ctx, player, puzzle)
		must(err)
		if f.Outcome == account.OutcomeSolved {
			p, err := db.Puzzle(ctx, puzzle)
			must(err)
			f.Grid = p.Solution.String()
		}
		if f.Outcome != "" {
			_, err = db.FinishAttempt(ctx, player, a.ID, f)
			must(err)
		}
	}
	for i, player := range append([]int64{1, zed.ID}, anon...) {
		play(player, 1, account.Finish{Outcome: account.OutcomeSolved, ActiveSeconds: 100 + int64(i)*37, Hints: int64(i % 2), Techniques: []string{"Naked Single"}[:i%2]})
		play(player, 4, account.Finish{Outcome: account.OutcomeGaveUp, ActiveSeconds: 50})
	}
	play(1, 2, account.Finish{Outcome: account.OutcomeSolved, ActiveSeconds: 90}) // puzzle 1 written another way
	play(anon[0], 6, account.Finish{Outcome: account.OutcomeSolved, ActiveSeconds: 300, Practice: true, Hints: 2, Techniques: []string{"X-Wing", "X-Wing"}})
	play(anon[1], 7, account.Finish{}) // left open

	col, err := db.CreateCollection(ctx, record.Collection{Name: "Firsts", Author: "Boss", Licence: "CC0", OwnerID: 1})
	must(err)
	zcol, err := db.CreateCollection(ctx, record.Collection{Name: "Zed's", OwnerID: zed.ID})
	must(err)
	for _, id := range []int64{9, 5, 7} {
		_, err := db.AddToCollection(ctx, col.ID, id)
		must(err)
	}
	_, err = db.AddToCollection(ctx, zcol.ID, 5)
	must(err)

	fillModeration(t, db, anon, zed.ID)
	must(db.DeletePlayer(ctx, zed.ID, moderation.CLI()))
	c.hidden = 13
	return c
}

// fillModeration adds to db flags (open, hidden, dismissed), a hidden
// puzzle, puzzles submitted by boss (1) and zed with accounts, and
// deleted puzzles.
func fillModeration(t *testing.T, db *store.DB, anon []int64, zed int64) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mod := moderation.Actor{ID: 2, Name: "mia", Via: moderation.ViaAPI}
	_, err := db.Flag(ctx, 13, anon[0], moderation.ReasonWrong, "two solutions?")
	must(err)
	_, err = db.Flag(ctx, 13, zed, moderation.ReasonOffensive, "")
	must(err)
	_, err = db.Flag(ctx, 9, anon[1], moderation.ReasonDuplicate, "same as 5")
	must(err)
	_, err = db.Flag(ctx, 10, anon[2], moderation.ReasonOther, "odd")
	must(err)
	_, err = db.HidePuzzle(ctx, 13, mod, "a wrong puzzle") // puzzle of the day on 2026-11-02
	must(err)
	_, err = db.Dismiss(ctx, 10, mod, "fine")
	must(err)
	for _, by := range []int64{1, zed} { // other ways of writing puzzles 19 and 20, submitted with an account
		p, err := db.Puzzle(ctx, 19+by%2)
		must(err)
		g, err := sudoku.Parse(relabel(p.Givens.String(), int(by)))
		must(err)
		q, err := record.Rate(g, sudoku.Options{})
		must(err)
		q.SubmitterID = by
		_, _, err = db.Submit(ctx, q)
		must(err)
	}
	// Deleted puzzles leave gaps in the ids: 2 (another way of writing 1,
	// played by boss), 16 (graded) and 49 (the last of fillArchive's; 50 and 51 are the two above).
	for _, id := range []int64{2, 16, 49} {
		must(db.DeletePuzzle(ctx, id, moderation.Actor{ID: 1, Name: "boss", Via: moderation.ViaAPI}, "a test"))
	}
}

// checkCopyServes checks that a server on the copy at dsn, whose source
// fillPlayers filled, works as the source did: the copied account logs in,
// the copied token and session authenticate, the hidden puzzle is hidden,
// and new attempts, flags and audit entries get new ids.
func checkCopyServes(t *testing.T, dsn string, c copyPeople, last int64) {
	t.Helper()
	s := startProc(t, buildBinary(t), dsn, "--rate-limit", "0")
	defer stopProc(t, s)
	var p puzzleJSON
	if res := call(t, "POST", s.url+"/api/puzzles", `{"puzzle": "`+easy+`"}`, &p); res.StatusCode != 201 || p.ID <= last {
		t.Errorf("first new puzzle on the copy: status %d, id %d, want an id past %d", res.StatusCode, p.ID, last)
	}
	anon := newClient(t, s.url)
	if status, _, _ := anon.form("/login", "/login", map[string][]string{"name": {"boss"}, "password": {staffPassword}}); status != 303 {
		t.Errorf("login with the copied account: %d, want 303", status)
	}
	player := newClient(t, s.url)
	boss := caller{player, c.adminToken}
	boss.want("GET", "/api/me", "", 200, `"name":"boss"`, `"role":"admin"`)
	if status, b, _ := player.do("GET", "/api/me", "", "Cookie", "sudoku_session="+c.cookie); status != 200 || !strings.Contains(b, `"name":"boss"`) {
		t.Errorf("the copied session: %d %s", status, b)
	}
	mia := caller{player, c.modToken}
	hidden := fmt.Sprintf("/api/puzzles/%d", c.hidden)
	caller{player, ""}.want("GET", hidden, "", 404)
	mia.want("GET", hidden, "", 200, `"hidden":true`)
	var a attemptJSON
	player.json("POST", "/api/attempts", `{"puzzle_id": 3}`, 201, &a)
	if a.ID <= 13 { // fillPlayers made 13 attempts
		t.Errorf("a new attempt on the copy got id %d, want one past the copied", a.ID)
	}
	b := boss.want("POST", "/api/puzzles/3/flag", `{"reason": "other", "text": "after the move"}`, 201)
	if !strings.Contains(b, `"id":5`) { // fillPlayers made 4 flags
		t.Errorf("a new flag on the copy: %s, want id 5", b)
	}
	mia.want("POST", "/api/puzzles/3/hide", `{"reason": "moved"}`, 200)
	out, _, err := runCmd(t, "", "audit", "--db", dsn)
	if err != nil || !strings.Contains(out, "moved") {
		t.Errorf("sudoku audit on the copy: %v\n%s", err, out)
	}
}
