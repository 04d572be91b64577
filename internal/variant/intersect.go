package variant

import "math/bits"

// cellSet is a set of cells, bit c of the 81.
type cellSet [2]uint64

func (s *cellSet) add(c uint8)          { s[c>>6] |= 1 << (c & 63) }
func (s cellSet) has(c uint8) bool      { return s[c>>6]>>(c&63)&1 == 1 }
func (s cellSet) and(t cellSet) cellSet { return cellSet{s[0] & t[0], s[1] & t[1]} }
func (s cellSet) or(t cellSet) cellSet  { return cellSet{s[0] | t[0], s[1] | t[1]} }
func (s cellSet) andNot(t cellSet) cellSet {
	return cellSet{s[0] &^ t[0], s[1] &^ t[1]}
}

// pop takes the least cell out of s; false when s is empty.
func (s *cellSet) pop() (uint8, bool) {
	for w := range 2 {
		if s[w] != 0 {
			c := bits.TrailingZeros64(s[w])
			s[w] &= s[w] - 1
			return uint8(w*64 + c), true
		}
	}
	return 0, false
}

// tieSets fills seen (each cell and its peers), tie (each cell and the
// cells a pair rule ties to it) and houseSets, for propIntersections.
func (m *model) tieSets() {
	m.houseSets = make([]cellSet, len(m.houses))
	for i, h := range m.houses {
		for _, c := range h {
			m.houseSets[i].add(c)
		}
	}
	for c := range 81 {
		m.seen[c] = m.peerSets[c]
		m.seen[c].add(uint8(c))
		m.tie[c].add(uint8(c))
		for _, o := range m.related[c] {
			m.tie[c].add(o)
		}
	}
}

// propIntersections: the places of a digit d in a house hold it in one of
// them, so a cell that sees every place (a peer of each) loses d: the
// classic intersection (a digit of a box confined to one row leaves the
// rest of the row), for every house and region of the rules (cages, extra
// regions, anti-knight moves too). With pair rules, a cell tied to every
// place (a peer or a partner under a pair rule), or a place tied to every
// other, keeps only what d in one of the places allows: the pointing of
// non-consecutive and the dots (a cell next to every place of a 5 in its
// box holds neither 4 nor 6).
func (m *model) propIntersections(bd *board, changed *bool) bool {
	gone := bd.gone
	bd.gone = [81]uint16{}
	for hi, h := range m.houses {
		var lost uint16 // the digits whose places changed
		for _, c := range h {
			lost |= gone[c]
		}
		if lost == 0 {
			continue // its places as they were when it was last done
		}
		if !m.nakedPairs(bd, h, changed) {
			return false
		}
		var places [9][9]uint8
		var count [9]uint8
		for _, c := range h {
			if bd.val[c] != 0 {
				continue
			}
			for x := bd.cand[c]; x != 0; x &= x - 1 {
				d := bits.TrailingZeros16(x)
				places[d][count[d]] = c
				count[d]++
			}
		}
		for d := range 9 {
			if lost>>d&1 != 0 && count[d] >= 2 && !m.intersect(bd, hi, uint16(1)<<d, places[d][:count[d]], changed) {
				return false
			}
		}
		if !hiddenPairs(bd, lost, &places, &count, changed) {
			return false
		}
	}
	return true
}

// intersect is propIntersections for the places ps of one digit (bit) in
// house hi. The sets narrow place by place and most are empty after one
// or two.
func (m *model) intersect(bd *board, hi int, bit uint16, ps []uint8, changed *bool) bool {
	sees := m.seen[ps[0]].andNot(m.houseSets[hi])
	for _, p := range ps {
		if sees = sees.and(m.seen[p]); sees == (cellSet{}) {
			break
		}
	}
	for {
		w, ok := sees.pop()
		if !ok {
			break
		}
		if bd.cand[w]&bit != 0 && !bd.narrow(w, ^bit, changed) {
			return false
		}
	}
	if m.rels == nil {
		return true
	}
	// A cell a mere peer of one place keeps every digit but d from it:
	// only a cell tied by pair rules to every other place can lose more.
	tied := m.tie[ps[0]]
	for _, p := range ps[1:] {
		if tied = tied.and(m.tie[p]); tied == (cellSet{}) {
			return true
		}
	}
	for {
		x, ok := tied.pop()
		if !ok {
			break
		}
		if bd.val[x] == 0 && !m.pointAt(bd, x, bit, ps, changed) {
			return false
		}
	}
	return true
}

// pointAt narrows x, tied to every place of the digit bit in a house, to
// what the digit in one of the places allows it.
func (m *model) pointAt(bd *board, x uint8, bit uint16, places []uint8, changed *bool) bool {
	keep := uint16(0)
	for _, p := range places {
		allow := uint16(all)
		if p == x {
			allow = bit
		} else if m.peerSets[x].has(p) {
			allow &^= bit
		}
		if m.rels != nil {
			for r := m.rels[x][p]; r != 0; r &= r - 1 {
				allow &= support[bits.TrailingZeros16(r)][bit]
			}
		}
		keep |= allow
		if keep&bd.cand[x] == bd.cand[x] {
			return true
		}
	}
	return bd.narrow(x, keep, changed)
}

// nakedPairs: two cells of a house holding the same two candidates hold
// those two digits, which the house's other cells lose.
func (m *model) nakedPairs(bd *board, h [9]uint8, changed *bool) bool {
	for i, a := range h {
		x := bd.cand[a]
		if bd.val[a] != 0 || bits.OnesCount16(x) != 2 {
			continue
		}
		for _, b := range h[i+1:] {
			if bd.cand[b] != x {
				continue
			}
			for _, c := range h {
				if c != a && c != b && bd.cand[c]&x != 0 && !bd.narrow(c, ^x, changed) {
					return false
				}
			}
			break
		}
	}
	return true
}

// hiddenPairs: two digits with the same two places in a house fill them,
// which keep no other digit.
func hiddenPairs(bd *board, lost uint16, places *[9][9]uint8, count *[9]uint8, changed *bool) bool {
	var twice uint16 // the digits with two places
	for d := range 9 {
		if count[d] == 2 {
			twice |= 1 << d
		}
	}
	if bits.OnesCount16(twice) < 2 || twice&lost == 0 {
		return true
	}
	for d := range 9 {
		if count[d] != 2 {
			continue
		}
		for e := d + 1; e < 9; e++ {
			if (lost>>d|lost>>e)&1 != 0 && count[e] == 2 && places[e][0] == places[d][0] && places[e][1] == places[d][1] {
				pair := uint16(1)<<d | uint16(1)<<e
				if !bd.narrow(places[d][0], pair, changed) || !bd.narrow(places[d][1], pair, changed) {
					return false
				}
			}
		}
	}
	return true
}
