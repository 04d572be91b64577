package sudoku

import "testing"

func TestBandOf(t *testing.T) {
	for _, tc := range []struct {
		backtracks int64
		want       Band
	}{
		{0, BandEasy}, {1, BandMedium}, {2, BandMedium}, {15, BandMedium},
		{16, BandHard}, {63, BandHard}, {64, BandFiendish}, {127, BandFiendish},
		{128, BandExtreme}, {66_154, BandExtreme}, {NoMax, BandExtreme},
	} {
		if got := BandOf(tc.backtracks); got != tc.want {
			t.Errorf("BandOf(%d) = %q, want %q", tc.backtracks, got, tc.want)
		}
	}
}

// TestBandsTile checks that the bands cover 0..NoMax without gap or overlap,
// each bound on a bucket edge, and that every value in a band maps to it.
func TestBandsTile(t *testing.T) {
	next := int64(0)
	for i, b := range Bands {
		if b.Min != next {
			t.Fatalf("band %s starts at %d, want %d", b.Band, b.Min, next)
		}
		if b.Max < b.Min {
			t.Fatalf("band %s: max %d < min %d", b.Band, b.Max, b.Min)
		}
		if lo, _ := BacktracksBucketRange(BacktracksBucket(b.Min)); lo != b.Min {
			t.Errorf("band %s starts at %d, inside bucket %d (from %d)", b.Band, b.Min, BacktracksBucket(b.Min), lo)
		}
		if _, hi := BacktracksBucketRange(BacktracksBucket(b.Max)); hi != b.Max && b.Max != NoMax {
			t.Errorf("band %s ends at %d, inside bucket %d (to %d)", b.Band, b.Max, BacktracksBucket(b.Max), hi)
		}
		for _, v := range []int64{b.Min, b.Max, b.Min + (b.Max-b.Min)/2} {
			if got := BandOf(v); got != b.Band {
				t.Errorf("BandOf(%d) = %s, want %s", v, got, b.Band)
			}
		}
		if !b.Band.Valid() {
			t.Errorf("%s not valid", b.Band)
		}
		if i == len(Bands)-1 {
			if b.Max != NoMax {
				t.Errorf("last band ends at %d", b.Max)
			}
			break
		}
		next = b.Max + 1
	}
	if Band("").Valid() || Band("Easy").Valid() {
		t.Error("unknown band reported valid")
	}
}

func TestBacktracksBucket(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want int
	}{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 3}, {7, 3}, {8, 4}, {1023, 10}, {1024, 11}} {
		if got := BacktracksBucket(tc.v); got != tc.want {
			t.Errorf("BacktracksBucket(%d) = %d, want %d", tc.v, got, tc.want)
		}
		if lo, hi := BacktracksBucketRange(tc.want); tc.v < lo || tc.v > hi {
			t.Errorf("bucket %d is %d..%d, which misses %d", tc.want, lo, hi, tc.v)
		}
	}
}

func TestBandRange(t *testing.T) {
	want := []string{"0", "1–15", "16–63", "64–127", "128 or more"}
	for i, b := range Bands {
		if got := b.Range(); got != want[i] {
			t.Errorf("%s: Range() = %q, want %q", b.Band, got, want[i])
		}
	}
}
