package logic

import "slices"

// The links a step draws: for a chain, each link between two candidates,
// strong or weak, as SudokuWiki and HoDoKu draw them (a strong link solid,
// a weak one dashed).

// Link joins two candidates of a chain. Strong: if From is false, To is
// true (an off node followed by an on node in Sudoku Explainer's terms);
// weak: if From is true, To is false (or, in the dynamic chains (+), if
// From is false a simple rule makes To false too).
type Link struct {
	From   Candidate `json:"from"`
	To     Candidate `json:"to"`
	Strong bool      `json:"strong"`
}

// Links returns the links of a chain step, in the order the chain takes
// them: those of its nodes (Chain) or, for the forcing chains that compare
// several branches, those of every branch as far as it is recorded (each
// branch from its assumption to its conclusion). Steps that are not
// chains have none.
func (s Step) Links() []Link {
	var out []Link
	seen := map[Link]bool{}
	add := func(path []Node) {
		for i := 0; i+1 < len(path); i++ {
			a, b := path[i], path[i+1]
			if a.Candidate == b.Candidate {
				continue
			}
			l := Link{From: a.Candidate, To: b.Candidate, Strong: !a.On && b.On}
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	if s.paths != nil {
		for _, p := range s.paths {
			add(p)
		}
		return out
	}
	add(groupHeads(s.Chain))
	return out
}

// groupHeads keeps the first node of each run of nodes with the same On:
// the chains of strong links (strong.go) list a grouped node's cells one
// after the other, and a link is drawn from the group's first cell.
func groupHeads(chain []Node) []Node {
	var out []Node
	for i, n := range chain {
		if i > 0 && n.On == chain[i-1].On {
			continue
		}
		out = append(out, n)
	}
	return out
}

// path returns the implication chain that led ch's run to node id (or to
// the contradiction's extra node, for extraSlot), from the assumption on:
// each node's first parent, back to the start.
func (ch *chainer) path(id int32) []Node {
	return ch.appendPath(nil, id)
}

// appendPath appends path(id) to buf, growing it at most once.
func (ch *chainer) appendPath(buf []Node, id int32) []Node {
	start := id
	if id == extraSlot {
		start = ch.extraID
	}
	// Walk back twice: once to count, once to fill from the end.
	walk := func(f func(node int32)) {
		slot, node := id, start
		for range nNodes { // a parent is always added before its child: no loop
			f(node)
			if ch.parN[slot] == 0 {
				return
			}
			node = ch.pool[ch.parStart[slot]]
			slot = node
		}
	}
	n := 0
	walk(func(int32) { n++ })
	buf = slices.Grow(buf, n)
	at := len(buf)
	buf = buf[:at+n]
	walk(func(node int32) { n--; buf[at+n] = toNode(node) })
	return buf
}

// Branch is one branch of a forcing chain that compares branches (Nishio,
// cell, region and dynamic forcing chains): its assumption, the node it
// reaches (the step's shared conclusion; for a contradiction, the one
// candidate's two values) and the links from one to the other, in order.
type Branch struct {
	Assumption Node   `json:"assumption"`
	Conclusion Node   `json:"conclusion"`
	Links      []Link `json:"links"`
}

// BranchLinks returns the branches of a forcing chain that compares branches,
// one per recorded path, each its own links (a link two branches share is
// in both: Links lists it once). Other steps have none. A board draws them
// one at a time (issue 46).
func (s Step) BranchLinks() []Branch {
	if s.paths == nil {
		return nil
	}
	out := make([]Branch, 0, len(s.paths))
	for _, p := range s.paths {
		if len(p) == 0 {
			continue
		}
		b := Branch{Assumption: p[0], Conclusion: p[len(p)-1], Links: []Link{}}
		for i := 0; i+1 < len(p); i++ {
			a, z := p[i], p[i+1]
			if a.Candidate == z.Candidate {
				continue
			}
			b.Links = append(b.Links, Link{From: a.Candidate, To: z.Candidate, Strong: !a.On && z.On})
		}
		out = append(out, b)
	}
	return out
}
