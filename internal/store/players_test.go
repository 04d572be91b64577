package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
)

// playersSuite is the suite's part for players, sessions, tokens and
// attempts (added to suite in suite_test.go).
var playersSuite = []suiteCase{
	{"PlayersSessions", testPlayersSessions},
	{"SessionsTogether", testSessionsTogether},
	{"LoginTryConcurrent", testLoginTryConcurrent},
	{"PlayersSignupNames", testPlayersSignupNames},
	{"PlayersTokensRoles", testPlayersTokensRoles},
	{"AttemptsFlow", testAttemptsFlow},
	{"AttemptsFirstByClass", testAttemptsFirstByClass},
	{"AttemptsRefused", testAttemptsRefused},
	{"AttemptsConcurrentFinishes", testAttemptsConcurrentFinishes},
	{"PlayersSummaryExportDelete", testPlayersSummaryExportDelete},
	{"PlayersStreak", testPlayersStreak},
}

// testPlayersStreak: solving today's puzzle of the day continues a streak
// that reached yesterday, and begins a new one after a gap.
func testPlayersStreak(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	today := time.Now().UTC()
	day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
	pz, err := db.SetDaily(ctx, day(0), archived(t, db, 40))
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		streak int
		last   string
		want   int
	}{{3, day(-1), 4}, {3, day(-2), 1}, {0, "", 1}, {5, day(0), 5}} {
		p, err := db.NewPlayer(ctx, session(byte(i+1)), today.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		// The streak as earlier days left it.
		err = db.write(ctx, func(tx *sql.Tx) error {
			_, err := tx.Exec(db.d.sql("UPDATE players SET streak = ?, streak_day = ? WHERE id = ?"), tc.streak, tc.last, p.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := db.StartAttempt(ctx, p.ID, pz.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}); err != nil {
			t.Fatal(err)
		}
		if s, err := db.Summary(ctx, p.ID, today); err != nil || s.Streak != tc.want {
			t.Errorf("streak %d up to %q, then today's solved: %d, %v; want %d", tc.streak, tc.last, s.Streak, err, tc.want)
		}
	}
}

// archived submits the synthetic puzzle n and returns it as stored.
func archived(t testing.TB, db *DB, n int64) record.Puzzle {
	t.Helper()
	p, _, err := db.Submit(context.Background(), synthetic(n, n, 1000, 1))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func session(b byte) []byte {
	h := make([]byte, 32)
	h[0] = b
	return h
}

func testPlayersSessions(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	now := time.Now()
	p, err := db.NewPlayer(ctx, session(1), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if p.ID == 0 || p.Name != "" || p.Role != account.RolePlayer || p.HasPassword {
		t.Fatalf("new player %+v", p)
	}
	got, err := db.SessionPlayer(ctx, session(1), now)
	if err != nil || got.ID != p.ID {
		t.Fatalf("session player = %+v, %v; want %d", got, err, p.ID)
	}
	if _, err := db.SessionPlayer(ctx, session(1), now.Add(2*time.Hour)); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("expired session: %v, want ErrNoPlayer", err)
	}
	if _, err := db.SessionPlayer(ctx, session(9), now); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("unknown session: %v, want ErrNoPlayer", err)
	}
	// A login rotates: the old session ends, the new one names the player.
	if err := db.StartSession(ctx, p.ID, session(1), session(2), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionPlayer(ctx, session(1), now); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("old session after rotation: %v, want ErrNoPlayer", err)
	}
	if got, err := db.SessionPlayer(ctx, session(2), now); err != nil || got.ID != p.ID {
		t.Errorf("new session = %+v, %v", got, err)
	}
	if err := db.EndSession(ctx, session(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionPlayer(ctx, session(2), now); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("session after logout: %v, want ErrNoPlayer", err)
	}
	checkLoginTries(t, db, now)
}

// checkLoginTries: login tries are counted per name, within the window:
// five allowed, the sixth refused; a success is forgotten; old tries
// expire.
func checkLoginTries(t *testing.T, db *DB, now time.Time) {
	t.Helper()
	ctx := context.Background()
	const window = 15 * time.Minute
	try := func(name string, at time.Time) bool {
		t.Helper()
		// Each from an address of its own: the address limit is
		// testLoginThrottleAddress's.
		refused, err := db.LoginTry(ctx, account.LoginAttempt{NameKey: name, Address: at.String(), At: at}, loginLimits(window))
		if err != nil {
			t.Fatal(err)
		}
		return refused == account.ThrottleNone
	}
	for i := range 5 {
		if !try("ann", now.Add(time.Duration(i-20)*time.Minute)) {
			t.Fatalf("old try %d refused", i)
		}
	}
	for i := range 5 {
		if !try("ann", now.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("try %d within the window refused: the old ones count", i)
		}
	}
	if try("ann", now.Add(10*time.Second)) {
		t.Error("a sixth try within the window allowed")
	}
	if !try("bob", now.Add(10*time.Second)) {
		t.Error("another name refused")
	}
	if err := db.LoginSucceeded(ctx, account.LoginAttempt{NameKey: "ann", At: now.Add(4 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if !try("ann", now.Add(11*time.Second)) || try("ann", now.Add(12*time.Second)) {
		t.Error("a success is not forgotten once, or forgotten more")
	}
	if !try("ann", now.Add(window+time.Second)) {
		t.Error("a try after the window refused")
	}
}

func testPlayersSignupNames(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	exp := time.Now().Add(time.Hour)
	anon, err := db.NewPlayer(ctx, session(1), exp)
	if err != nil {
		t.Fatal(err)
	}
	pz := archived(t, db, 3)
	if _, _, err := db.StartAttempt(ctx, anon.ID, pz.ID); err != nil {
		t.Fatal(err)
	}
	// Signing up names the anonymous player: its history stays.
	p, err := db.Signup(ctx, anon.ID, "Ann", "hash", session(1), session(2), exp)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != anon.ID || p.Name != "Ann" || !p.HasPassword {
		t.Fatalf("signed up %+v, want player %d named Ann", p, anon.ID)
	}
	if as, err := db.Attempts(ctx, p.ID, 0, 10); err != nil || len(as) != 1 {
		t.Errorf("history after sign-up: %d attempts, %v", len(as), err)
	}
	if _, err := db.SessionPlayer(ctx, session(1), time.Now()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("anonymous session still open after sign-up: %v", err)
	}
	// Names are unique whatever their case.
	if _, err := db.Signup(ctx, 0, "aNN", "hash", nil, session(3), exp); !errors.Is(err, account.ErrNameTaken) {
		t.Errorf("sign up as aNN: %v, want ErrNameTaken", err)
	}
	if _, err := db.AddUser(ctx, "ANN", "hash", account.RolePlayer, moderation.CLI()); !errors.Is(err, account.ErrNameTaken) {
		t.Errorf("add user ANN: %v, want ErrNameTaken", err)
	}
	// Signing up again from a named player's session makes a new player.
	q, err := db.Signup(ctx, p.ID, "Bob", "hash2", session(2), session(4), exp)
	if err != nil || q.ID == p.ID {
		t.Fatalf("second sign-up = %+v, %v; want a new player", q, err)
	}
	got, hash, err := db.Credentials(ctx, "bob")
	if err != nil || got.ID != q.ID || hash != "hash2" {
		t.Errorf("credentials of bob = %+v %q %v", got, hash, err)
	}
	if _, _, err := db.Credentials(ctx, "nobody"); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("credentials of nobody: %v", err)
	}
	if _, _, err := db.SetPassword(ctx, "BOB", "hash3"); err != nil {
		t.Fatal(err)
	}
	if _, hash, _ := db.Credentials(ctx, "Bob"); hash != "hash3" {
		t.Errorf("password after SetPassword = %q", hash)
	}
	if _, err := db.SessionPlayer(ctx, session(4), time.Now()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("session survives a password change: %v", err)
	}
}

func testPlayersTokensRoles(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, err := db.AddUser(ctx, "mod", "hash", account.RoleModerator, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddToken(ctx, "MOD", session(7), moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if got, err := db.TokenPlayer(ctx, session(7)); err != nil || got.ID != p.ID || got.Role != account.RoleModerator {
		t.Errorf("token player = %+v, %v", got, err)
	}
	if _, err := db.TokenPlayer(ctx, session(8)); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("unknown token: %v", err)
	}
	if _, err := db.AddToken(ctx, "nobody", session(9), moderation.CLI()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("token of nobody: %v", err)
	}
	if err := db.SetRole(ctx, "mod", account.RoleAdmin, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRole(ctx, "nobody", account.RoleAdmin, moderation.CLI()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("role of nobody: %v", err)
	}
	if _, err := db.AddUser(ctx, "ann", "hash", account.RolePlayer, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	us, err := db.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 2 || us[0].Name != "ann" || us[1].Name != "mod" || us[1].Role != account.RoleAdmin {
		t.Errorf("users = %+v, want ann and mod (admin), not the anonymous player", us)
	}
}

func solvedGrid() string { return storetest.Solved.String() }

func testAttemptsFlow(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, _ := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	pz := archived(t, db, 5)
	a, created, err := db.StartAttempt(ctx, p.ID, pz.ID)
	if err != nil || !created || a.Outcome != account.OutcomeOpen {
		t.Fatalf("start = %+v, %v, %v", a, created, err)
	}
	// A second tab gets the same open attempt.
	b, created, err := db.StartAttempt(ctx, p.ID, pz.ID)
	if err != nil || created || b.ID != a.ID {
		t.Fatalf("second start = %+v, %v, %v; want attempt %d again", b, created, err, a.ID)
	}
	f := account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), ActiveSeconds: 100000, Hints: 1, Checks: 2, Mistakes: 3, Techniques: []string{"Naked Single", "X-Wing"}}
	done, err := db.FinishAttempt(ctx, p.ID, a.ID, f)
	if err != nil {
		t.Fatal(err)
	}
	if done.Outcome != account.OutcomeSolved || !done.First || done.Hints != 2 || done.Checks != 2 || done.Mistakes != 3 || done.FinishedAt.IsZero() {
		t.Errorf("finished = %+v", done)
	}
	if done.Seconds > 5 {
		t.Errorf("seconds = %d: not capped by the server's clock", done.Seconds)
	}
	got, err := db.Attempt(ctx, p.ID, a.ID)
	if err != nil || got.Outcome != account.OutcomeSolved || len(got.Techniques) != 2 || got.Techniques[1] != "X-Wing" {
		t.Errorf("read back = %+v, %v", got, err)
	}
	checkAttemptAfterFinish(t, db, p.ID, pz.ID, a.ID)
}

// checkAttemptAfterFinish: after attempt first of player at puzzle is
// finished, a new start is a new attempt, and not a first; the player's
// attempts are listed newest first, page by page.
func checkAttemptAfterFinish(t *testing.T, db *DB, player, puzzle, first int64) {
	t.Helper()
	ctx := context.Background()
	c, created, err := db.StartAttempt(ctx, player, puzzle)
	if err != nil || !created || c.ID == first {
		t.Fatalf("start after finish = %+v, %v, %v", c, created, err)
	}
	c, err = db.FinishAttempt(ctx, player, c.ID, account.Finish{Outcome: account.OutcomeGaveUp})
	if err != nil || c.First || c.Outcome != account.OutcomeGaveUp {
		t.Errorf("second finish = %+v, %v; want gave_up, not first", c, err)
	}
	as, err := db.Attempts(ctx, player, 0, 1)
	if err != nil || len(as) != 1 || as[0].ID != c.ID {
		t.Fatalf("first page = %+v, %v", as, err)
	}
	as, err = db.Attempts(ctx, player, as[0].ID, 5)
	if err != nil || len(as) != 1 || as[0].ID != first {
		t.Errorf("second page = %+v, %v", as, err)
	}
}

func testAttemptsFirstByClass(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, _ := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	one := archived(t, db, 6)
	other := synthetic(9, 9, 1000, 1)
	other.Canonical = one.Canonical // the same puzzle, written another way
	two, _, err := db.Submit(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if two.ID == one.ID {
		t.Fatal("the second writing was taken for a duplicate")
	}
	a, _, _ := db.StartAttempt(ctx, p.ID, one.ID)
	if a, err = db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}); err != nil || !a.First {
		t.Fatalf("first attempt = %+v, %v", a, err)
	}
	b, _, _ := db.StartAttempt(ctx, p.ID, two.ID)
	if b, err = db.FinishAttempt(ctx, p.ID, b.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}); err != nil || b.First {
		t.Errorf("attempt at another writing = %+v, %v; want not first", b, err)
	}
	q, _ := db.NewPlayer(ctx, session(2), time.Now().Add(time.Hour))
	c, _, _ := db.StartAttempt(ctx, q.ID, two.ID)
	if c, err = db.FinishAttempt(ctx, q.ID, c.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}); err != nil || !c.First {
		t.Errorf("another player's attempt = %+v, %v; want first", c, err)
	}
}

func testAttemptsRefused(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, _ := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	q, _ := db.NewPlayer(ctx, session(2), time.Now().Add(time.Hour))
	pz := archived(t, db, 7)
	if _, _, err := db.StartAttempt(ctx, p.ID, 999999); !errors.Is(err, record.ErrNotFound) {
		t.Errorf("start at an unknown puzzle: %v", err)
	}
	a, _, _ := db.StartAttempt(ctx, p.ID, pz.ID)
	wrong := []byte(solvedGrid())
	wrong[0], wrong[1] = wrong[1], wrong[0]
	for _, tc := range []struct {
		name   string
		player int64
		id     int64
		f      account.Finish
		want   error
	}{
		{"foreign", q.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}, record.ErrNotFound},
		{"unknown", p.ID, a.ID + 1000, account.Finish{Outcome: account.OutcomeGaveUp}, record.ErrNotFound},
		{"wrong grid", p.ID, a.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: string(wrong)}, account.ErrWrongGrid},
		{"no grid", p.ID, a.ID, account.Finish{Outcome: account.OutcomeSolved}, account.ErrBadFinish},
		{"absurd seconds", p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp, ActiveSeconds: account.MaxSeconds + 1}, account.ErrBadFinish},
		{"negative seconds", p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp, ActiveSeconds: -1}, account.ErrBadFinish},
		{"negative hints", p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp, Hints: -1}, account.ErrBadFinish},
		{"open outcome", p.ID, a.ID, account.Finish{Outcome: account.OutcomeOpen}, account.ErrBadFinish},
	} {
		if _, err := db.FinishAttempt(ctx, tc.player, tc.id, tc.f); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if got, _ := db.Attempt(ctx, p.ID, a.ID); got.Outcome != account.OutcomeOpen {
		t.Fatalf("a refused finish recorded %+v", got)
	}
	if _, err := db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeGaveUp}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishAttempt(ctx, p.ID, a.ID, account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}); !errors.Is(err, account.ErrFinished) {
		t.Errorf("finishing twice: %v, want ErrFinished", err)
	}
}

// testAttemptsConcurrentFinishes finishes many players' attempts at once,
// each twice: every attempt ends once, with one first per player.
func testAttemptsConcurrentFinishes(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	pz := archived(t, db, 11)
	const players = 24
	ids := make([][2]int64, players)
	for i := range players {
		p, err := db.NewPlayer(ctx, session(byte(i+1)), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := db.StartAttempt(ctx, p.ID, pz.ID)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = [2]int64{p.ID, a.ID}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, finished := 0, 0
	for i := range players {
		for range 2 {
			wg.Go(func() {
				_, err := db.FinishAttempt(ctx, ids[i][0], ids[i][1], account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), ActiveSeconds: 1})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, account.ErrFinished):
					finished++
				default:
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	if ok != players || finished != players {
		t.Errorf("%d finishes recorded and %d refused as finished, want %d each", ok, finished, players)
	}
	for _, id := range ids {
		a, err := db.Attempt(ctx, id[0], id[1])
		if err != nil || a.Outcome != account.OutcomeSolved || !a.First {
			t.Errorf("attempt %d = %+v, %v", id[1], a, err)
		}
	}
}

func testPlayersSummaryExportDelete(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p, _ := db.NewPlayer(ctx, session(1), time.Now().Add(time.Hour))
	pz := []record.Puzzle{archived(t, db, 12), archived(t, db, 13), archived(t, db, 14)}
	finish := func(pzl record.Puzzle, f account.Finish) {
		t.Helper()
		a, _, err := db.StartAttempt(ctx, p.ID, pzl.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.FinishAttempt(ctx, p.ID, a.ID, f); err != nil {
			t.Fatal(err)
		}
	}
	// Today's puzzle of the day, solved today: a streak of one.
	today := time.Now().UTC()
	if _, err := db.SetDaily(ctx, today.Format(time.DateOnly), pz[0]); err != nil {
		t.Fatal(err)
	}
	finish(pz[0], account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()})
	finish(pz[0], account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid()}) // counted once in the streak
	finish(pz[1], account.Finish{Outcome: account.OutcomeSolved, Grid: solvedGrid(), Hints: 2, Techniques: []string{"X-Wing", "X-Wing"}})
	finish(pz[2], account.Finish{Outcome: account.OutcomeGaveUp})
	s, err := db.Summary(ctx, p.ID, today)
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, s, pz)
	if s2, _ := db.Summary(ctx, p.ID, today.AddDate(0, 0, 1)); s2.Streak != 1 {
		t.Errorf("streak tomorrow = %d, want 1 (it ends yesterday)", s2.Streak)
	}
	if s3, _ := db.Summary(ctx, p.ID, today.AddDate(0, 0, 2)); s3.Streak != 0 {
		t.Errorf("streak in two days = %d, want 0", s3.Streak)
	}
	checkExportDelete(t, db, p.ID, pz[0].ID)
}

// checkSummary checks testPlayersSummaryExportDelete's summary of today:
// four attempts at pz, three solved, a streak of one, the hints by
// technique, the puzzles to try again and the solves by grade.
func checkSummary(t *testing.T, s account.Summary, pz []record.Puzzle) {
	t.Helper()
	if s.Attempts != 4 || s.Solved != 3 || s.GaveUp != 1 || s.Streak != 1 {
		t.Errorf("summary counts %d/%d/%d streak %d, want 4/3/1 streak 1", s.Attempts, s.Solved, s.GaveUp, s.Streak)
	}
	if len(s.Techniques) == 0 || s.Techniques[0].Name != "X-Wing" || s.Techniques[0].Hints != 2 {
		t.Errorf("techniques = %+v", s.Techniques)
	}
	if len(s.TryAgain) != 2 || s.TryAgain[0].PuzzleID != pz[2].ID || s.TryAgain[1].PuzzleID != pz[1].ID {
		t.Errorf("try again = %+v", s.TryAgain)
	}
	var solves int64
	for _, g := range s.ByGrade {
		solves += g.Solves
	}
	if solves != 3 {
		t.Errorf("by grade = %+v: %d solves, want 3", s.ByGrade, solves)
	}
}

// checkExportDelete exports player's four attempts and one session, then
// deletes the player: their session and attempts go, a second delete
// finds nobody, and the puzzle they played stays.
func checkExportDelete(t *testing.T, db *DB, player, puzzle int64) {
	t.Helper()
	ctx := context.Background()
	e, err := db.ExportPlayer(ctx, player)
	if err != nil || e.Player.ID != player || len(e.Attempts) != 4 || len(e.Sessions) != 1 {
		t.Fatalf("export = %+v, %v", e, err)
	}
	if err := db.DeletePlayer(ctx, player, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionPlayer(ctx, session(1), time.Now()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("session after delete: %v", err)
	}
	if as, _ := db.Attempts(ctx, player, 0, 10); len(as) != 0 {
		t.Errorf("%d attempts after delete", len(as))
	}
	if err := db.DeletePlayer(ctx, player, moderation.CLI()); !errors.Is(err, account.ErrNoPlayer) {
		t.Errorf("delete twice: %v", err)
	}
	if _, err := db.Puzzle(ctx, puzzle); err != nil {
		t.Errorf("the puzzle went with the player: %v", err)
	}
}
