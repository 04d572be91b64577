package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// testTokensListRevoke: a player's tokens are listed with ids and dates
// (their last use noted), revoked one by one (audited; another player's
// or a revoked one is ErrNoToken), and a password change ends the
// sessions, keeps the tokens and says so.
func testTokensListRevoke(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ann, err := db.AddUser(ctx, "ann", "h", account.RolePlayer, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	bob, err := db.AddUser(ctx, "bob", "h", account.RolePlayer, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	id1, err := db.AddToken(ctx, "ANN", account.HashToken("one"), moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	id2, err := db.AddToken(ctx, "ann", account.HashToken("two"), moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.TokenPlayer(ctx, account.HashToken("two")); err != nil {
		t.Fatal(err)
	}
	ts, err := db.Tokens(ctx, ann.ID)
	if err != nil || len(ts) != 2 || ts[0].ID != id1 || ts[1].ID != id2 || !ts[0].LastUsed.IsZero() || ts[1].LastUsed.IsZero() {
		t.Fatalf("tokens of ann = %+v, %v; want %d (never used) and %d (used)", ts, err, id1, id2)
	}
	if err := db.RevokeToken(ctx, bob.ID, id1, moderation.CLI()); !errors.Is(err, account.ErrNoToken) {
		t.Errorf("bob revokes ann's token: %v, want ErrNoToken", err)
	}
	if err := db.RevokeToken(ctx, ann.ID, id1, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeToken(ctx, ann.ID, id1, moderation.CLI()); !errors.Is(err, account.ErrNoToken) {
		t.Errorf("revoke twice: %v, want ErrNoToken", err)
	}
	if _, err := db.TokenPlayer(ctx, account.HashToken("one")); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("a revoked token still opens: %v", err)
	}
	es, err := db.Audit(ctx, 0, 10)
	if err != nil || len(es) == 0 || es[0].Action != moderation.ActionTokenRevoke || es[0].PlayerName != "ann" {
		t.Errorf("audit after the revocation: %+v, %v", es, err)
	}
	checkPasswordKeepsTokens(t, db, ann)
}

// checkPasswordKeepsTokens: a password change ends ann's session, keeps
// her one token and counts both.
func checkPasswordKeepsTokens(t *testing.T, db *DB, ann account.Player) {
	ctx := context.Background()
	if err := db.StartSession(ctx, ann.ID, nil, session(1), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	sessions, tokens, err := db.SetPassword(ctx, "Ann", "h2")
	if err != nil || sessions != 1 || tokens != 1 {
		t.Errorf("password change: %d sessions ended, %d tokens kept, %v; want 1 and 1", sessions, tokens, err)
	}
	if _, err := db.SessionPlayer(ctx, session(1), time.Now()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("a session outlived the password change: %v", err)
	}
	if p, err := db.TokenPlayer(ctx, account.HashToken("two")); err != nil || p.ID != ann.ID {
		t.Errorf("the kept token: %+v, %v", p, err)
	}
}

// testLoginThrottleAddress: twenty failures from one address refuse it
// across names; another address is not held up; a device cookie's tries
// pass a locked name and a locked address, and are held by their own
// limit.
func testLoginThrottleAddress(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	now := time.Now()
	l := loginLimits(15 * time.Minute)
	try := func(name, addr, device string, i int) account.Throttled {
		t.Helper()
		r, err := db.LoginTry(ctx, account.LoginAttempt{NameKey: name, Address: addr, Device: device, At: now.Add(time.Duration(i) * time.Millisecond)}, l)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for i := range 20 {
		if r := try(string(rune('a'+i))+"name", "192.0.2.1", "", i); r != account.ThrottleNone {
			t.Fatalf("try %d (a name of its own) refused: %s", i, r)
		}
	}
	if r := try("zname", "192.0.2.1", "", 20); r != account.ThrottleAddress {
		t.Errorf("the 21st failure from one address: %q, want %q", r, account.ThrottleAddress)
	}
	if r := try("zname", "192.0.2.2", "", 21); r != account.ThrottleNone {
		t.Errorf("another address: %q", r)
	}
	for i := range 5 {
		try("owner", "198.51.100.1", "", 30+i)
	}
	if r := try("owner", "198.51.100.9", "", 40); r != account.ThrottleName {
		t.Errorf("a sixth failure for a name: %q, want %q", r, account.ThrottleName)
	}
	for i := range 5 {
		if r := try("owner", "192.0.2.1", "dev1", 50+i); r != account.ThrottleNone {
			t.Fatalf("the owner's device, try %d: %q (the name and the address are locked, the device is not)", i, r)
		}
	}
	if r := try("owner", "192.0.2.1", "dev1", 60); r != account.ThrottleDevice {
		t.Errorf("a sixth failure from one device: %q, want %q", r, account.ThrottleDevice)
	}
}

// testFinishHiddenSince: an attempt opened before its puzzle was hidden
// cannot be finished (not found) and counts nothing; once the puzzle is
// restored it finishes.
func testFinishHiddenSince(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, err := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	pz := archived(t, db, 7)
	a, _, err := db.StartAttempt(ctx, p.ID, pz.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.HidePuzzle(ctx, pz.ID, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("finish on a puzzle hidden since: %v, want ErrNotFound", err)
	}
	if got, err := db.Attempt(ctx, p.ID, a.ID); err != nil || got.Outcome != account.OutcomeOpen || got.Counted {
		t.Errorf("the attempt after the refused finish: %+v, %v; want open, uncounted", got, err)
	}
	if err := db.RestorePuzzle(ctx, pz.ID, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	got, err := db.Puzzle(ctx, pz.ID)
	if err != nil || got.Plays != 0 {
		t.Errorf("plays after the refused finish: %d, %v; want 0", got.Plays, err)
	}
	if got, err := db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}); err != nil || !got.Counted {
		t.Errorf("finish once restored: %+v, %v", got, err)
	}
}
