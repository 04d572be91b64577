package sudoku

// The plain algorithm of the classic tutorials, kept here as an independent
// reference: first empty cell in row order, digits 1 to 9, no propagation.
// It shares no code with the engine.

// plain counts the solutions of g up to two, keeping the first; ok is false
// when it gave up after maxNodes placements.
type plain struct {
	g        [81]uint8
	sols     int
	first    [81]uint8
	nodes    int64
	maxNodes int64
}

func plainSolve(g Grid, maxNodes int64) (sols int, first Grid, ok bool) {
	p := plain{g: g, maxNodes: maxNodes}
	if !p.givensOK() {
		return 0, Grid{}, true
	}
	p.search()
	return p.sols, p.first, p.nodes <= p.maxNodes
}

func (p *plain) givensOK() bool {
	for c, v := range p.g {
		if v == 0 {
			continue
		}
		p.g[c] = 0
		ok := p.fits(c, v)
		p.g[c] = v
		if !ok {
			return false
		}
	}
	return true
}

func (p *plain) fits(c int, v uint8) bool {
	r, col := c/9, c%9
	br, bc := r/3*3, col/3*3
	for i := 0; i < 9; i++ {
		if p.g[r*9+i] == v || p.g[i*9+col] == v || p.g[(br+i/3)*9+bc+i%3] == v {
			return false
		}
	}
	return true
}

func (p *plain) search() {
	if p.sols >= 2 || p.nodes > p.maxNodes {
		return
	}
	c := 0
	for c < 81 && p.g[c] != 0 {
		c++
	}
	if c == 81 {
		p.sols++
		if p.sols == 1 {
			p.first = p.g
		}
		return
	}
	for v := uint8(1); v <= 9; v++ {
		if p.fits(c, v) {
			p.nodes++
			p.g[c] = v
			p.search()
			p.g[c] = 0
			if p.sols >= 2 || p.nodes > p.maxNodes {
				return
			}
		}
	}
}
