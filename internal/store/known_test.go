package store

import "testing"

// TestKnownClasses: what a transaction found is known once it commits, and
// forgotten if it does not; the memory stays within maxKnownClasses.
func TestKnownClasses(t *testing.T) {
	k := newKnownClasses()
	a, b := []byte("class a"), []byte("class b")
	k.saw(a, 1)
	if id, ok := k.first(a); !ok || id != 1 {
		t.Fatalf("within its transaction: first(a) = %d, %v; want 1, true", id, ok)
	}
	k.end(true)
	k.saw(b, 2)
	k.end(false)
	if id, ok := k.first(a); !ok || id != 1 {
		t.Errorf("after commit: first(a) = %d, %v; want 1, true", id, ok)
	}
	if id, ok := k.first(b); ok {
		t.Errorf("after rollback: first(b) = %d, true; want unknown", id)
	}
	for i := range maxKnownClasses + 10 {
		k.saw([]byte{byte(i), byte(i >> 8), byte(i >> 16)}, int64(i))
	}
	k.end(true)
	if n := len(k.committed); n > maxKnownClasses {
		t.Errorf("%d classes kept, more than %d", n, maxKnownClasses)
	}
	if len(k.found) != 0 {
		t.Errorf("%d classes still pending after the end", len(k.found))
	}
}
