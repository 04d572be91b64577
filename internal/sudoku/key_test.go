package sudoku

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestKey(t *testing.T) {
	var g Grid
	g[0], g[9], g[80] = 5, 3, 9
	want := []byte{1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x53, 0x90}
	if got := g.Key(); !bytes.Equal(got, want) {
		t.Errorf("Key = % x, want % x", got, want)
	}
	full := mustParse(t, "534678912672195348198342567859761423426853791713924856961537284287419635345286179")
	if k := full.Key(); len(k) != KeyMaskLen+41 || k[KeyMaskLen] != 0x53 || k[len(k)-1] != 0x90 {
		t.Errorf("full grid: key % x", k)
	}
	// The same digits in neighbouring cells.
	var a, b Grid
	a[0], b[1] = 7, 7
	if bytes.Equal(a.Key(), b.Key()) {
		t.Errorf("%s and %s share key % x", a, b, a.Key())
	}
}

// randomGrids returns n grids with every clue count from 1 to 81 and
// digits at random (not necessarily valid puzzles).
func randomGrids(n int) []Grid {
	r := rand.New(rand.NewPCG(6, 6))
	gs := make([]Grid, n)
	for i := range gs {
		for _, c := range r.Perm(81)[:1+i%81] {
			gs[i][c] = uint8(1 + r.IntN(9))
		}
	}
	return gs
}

// TestKeyOneToOne: distinct grids get distinct keys, and a grid can
// be read back from its key.
func TestKeyOneToOne(t *testing.T) {
	seen := map[string]Grid{}
	for _, g := range randomGrids(5000) {
		k := string(g.Key())
		if h, ok := seen[k]; ok && h != g {
			t.Fatalf("%s and %s share key % x", g, h, k)
		}
		seen[k] = g
		// Decode: the bitmap says which cells the digits fill.
		var back Grid
		n := 0
		for c := range 81 {
			if k[c/8]&(1<<(c%8)) != 0 {
				d := k[KeyMaskLen+n/2]
				if n%2 == 0 {
					d >>= 4
				}
				back[c] = d & 0xf
				n++
			}
		}
		if back != g || len(k) != KeyMaskLen+(n+1)/2 {
			t.Fatalf("key % x decodes to %s, want %s", k, back, g)
		}
	}
}
