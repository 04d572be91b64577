package logic

import "encoding/json"

// MarshalJSON writes a step with its lists always as arrays: a step that
// places no digit has "placements": [], never null, whichever technique or
// path (explain, hint) produced it.
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step // without this method
	p := plain(s)
	if p.Cells == nil {
		p.Cells = []int{}
	}
	if p.Placements == nil {
		p.Placements = []Candidate{}
	}
	if p.Eliminations == nil {
		p.Eliminations = []Candidate{}
	}
	return json.Marshal(p)
}
