package store

import (
	"bytes"
	"context"
	"testing"
)

// testDailySecret: an archive's daily secret is made once, 32 random
// bytes, and read alike ever after and by every server of the archive; a
// new archive makes another.
func testDailySecret(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	a := MustOpenDBAt(t, dsn)
	first, err := a.DailySecret(ctx)
	if err != nil || len(first) != dailySecretBytes {
		t.Fatalf("secret: %d bytes, %v", len(first), err)
	}
	if again, err := a.DailySecret(ctx); err != nil || !bytes.Equal(again, first) {
		t.Errorf("a second call: %x, %v", again, err)
	}
	if other, err := MustOpenDBAt(t, dsn).DailySecret(ctx); err != nil || !bytes.Equal(other, first) {
		t.Errorf("another server of the archive: %x, %v", other, err)
	}
	if fresh, err := bk.open(t).DailySecret(ctx); err != nil || bytes.Equal(fresh, first) {
		t.Errorf("another archive: the same secret (%v)", err)
	}
}
