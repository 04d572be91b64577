package sudoku

import "testing"

// TestBandOf pins the band of every grade at and around the edges of
// docs/engine.md: easy up to 2.0, medium to 3.4, hard to 4.6, fiendish to 6.6,
// extreme above; no grade, no band.
func TestBandOf(t *testing.T) {
	for _, tc := range []struct {
		tenths int64
		want   Band
	}{
		{0, ""}, {-1, ""},
		{10, BandEasy}, {12, BandEasy}, {15, BandEasy}, {20, BandEasy},
		{21, BandMedium}, {23, BandMedium}, {26, BandMedium}, {32, BandMedium}, {34, BandMedium},
		{35, BandHard}, {36, BandHard}, {42, BandHard}, {46, BandHard},
		{47, BandFiendish}, {50, BandFiendish}, {56, BandFiendish}, {66, BandFiendish},
		{67, BandExtreme}, {70, BandExtreme}, {95, BandExtreme}, {120, BandExtreme}, {NoMax, BandExtreme},
	} {
		if got := BandOf(tc.tenths); got != tc.want {
			t.Errorf("BandOf(%d) = %q, want %q", tc.tenths, got, tc.want)
		}
	}
}

// TestBandsTile checks that the bands cover the grades from 1.0 up without
// gap or overlap, and that every grade in a band maps to it.
func TestBandsTile(t *testing.T) {
	next := int64(10)
	for i, b := range Bands {
		if b.Min != next {
			t.Fatalf("band %s starts at %d, want %d", b.Band, b.Min, next)
		}
		if b.Max < b.Min {
			t.Fatalf("band %s: max %d < min %d", b.Band, b.Max, b.Min)
		}
		for _, v := range []int64{b.Min, b.Max, b.Min + (b.Max-b.Min)/2} {
			if got := BandOf(v); got != b.Band {
				t.Errorf("BandOf(%d) = %s, want %s", v, got, b.Band)
			}
		}
		if !b.Band.Valid() || b.Band.Rank() != i {
			t.Errorf("%s: valid %v, rank %d", b.Band, b.Band.Valid(), b.Band.Rank())
		}
		if i == len(Bands)-1 {
			if b.Max != NoMax {
				t.Errorf("last band ends at %d", b.Max)
			}
			break
		}
		next = b.Max + 1
	}
	if Band("").Valid() || Band("Easy").Valid() || Band("").Rank() != -1 {
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
	want := []string{"up to 2.0", "2.1–3.4", "3.5–4.6", "4.7–6.6", "6.7 and above"}
	for i, b := range Bands {
		if got := b.Range(); got != want[i] {
			t.Errorf("%s: Range() = %q, want %q", b.Band, got, want[i])
		}
	}
}
