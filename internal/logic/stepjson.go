package logic

import "encoding/json"

// MarshalJSON writes a step with its lists always as arrays: a step that
// places no digit has "placements": [], never null, whichever technique or
// path (explain, hint) produced it. It adds the chain's links (Links):
// [] for a step that is no chain; and, for a forcing chain that compares
// branches, each branch's links (BranchLinks), absent for other steps.
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step // without this method
	p := plain(s)
	if p.Cells == nil {
		p.Cells = []int{}
	}
	if p.Placements == nil {
		p.Placements = []Candidate{}
	}
	if p.Digits == nil {
		p.Digits = []int{}
	}
	if p.Eliminations == nil {
		p.Eliminations = []Candidate{}
	}
	links := s.Links()
	if links == nil {
		links = []Link{}
	}
	return json.Marshal(struct {
		plain
		Links    []Link   `json:"links"`
		Branches []Branch `json:"branches,omitempty"`
	}{p, links, s.BranchLinks()})
}
