package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestDescribeCodes: only a full disk reads as ErrFull; a value over a
// limit (54000) is the asker's 422 about the field, a NUL a 400, memory a
// 503 that says so.
func TestDescribeCodes(t *testing.T) {
	for _, tc := range []struct {
		code, msg string
		kind      record.Kind
		full      bool
		says      string
	}{
		{"53100", "could not extend file", record.KindFull, true, "full"},
		{"54000", `index row size 3016 exceeds btree version 4 maximum 2704 for index "login_failures_name"`, record.KindUnprocessable, false, `"name" is too long`},
		{"54000", `index row size 3016 exceeds btree version 4 maximum 2704 for index "other_index"`, record.KindUnprocessable, false, "index other_index"},
		{"22021", `invalid byte sequence for encoding "UTF8": 0x00`, record.KindInvalid, false, "NUL"},
		{"53200", "out of memory", record.KindUnavailable, false, "memory"},
	} {
		err := describe(&pgconn.PgError{Code: tc.code, Message: tc.msg})
		if k := record.KindOf(err); k != tc.kind || errors.Is(err, ErrFull) != tc.full || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v (kind %v, full %v), want kind %v, full %v, saying %q", tc.code, err, k, errors.Is(err, ErrFull), tc.kind, tc.full, tc.says)
		}
	}
}

// TestDataErrors (issue 45): on PostgreSQL, a login try whose name's key
// is 3,000 letters (past the web's check: an index row over the limit)
// fails as a 422 about the name, never "storage full"; a name with a NUL
// read back is a 400. SQLite stores and reads both.
func TestDataErrors(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := bk.open(t)
			// Letters that do not compress (PostgreSQL compresses an
			// index entry before it measures it).
			rng := rand.New(rand.NewPCG(45, 3000))
			letters := make([]byte, 3000)
			for i := range letters {
				letters[i] = byte('a' + rng.IntN(26))
			}
			long := account.LoginAttempt{NameKey: string(letters), Address: "192.0.2.1", At: time.Now()}
			_, err := db.LoginTry(ctx, long, account.LoginLimits{PerName: 5, PerAddress: 20, PerDevice: 5, Window: time.Minute})
			if bk.name == "sqlite" {
				if err != nil {
					t.Fatalf("SQLite: %v", err)
				}
			} else if errors.Is(err, ErrFull) || record.KindOf(err) != record.KindUnprocessable || !strings.Contains(err.Error(), `"name" is too long`) {
				t.Errorf("a login try of 3,000 letters: %v (kind %v), want a 422 about the name", err, record.KindOf(err))
			}
			_, _, err = db.Credentials(ctx, "a\x00b")
			if err = db.ExplainError(err); bk.name == "postgres" && record.KindOf(err) != record.KindInvalid {
				t.Errorf("credentials of a name with a NUL: %v (kind %v), want a 400", err, record.KindOf(err))
			}
		})
	}
}
