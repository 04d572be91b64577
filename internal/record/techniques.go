package record

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Techniques is the list of technique names a logical path used, each
// once, easiest first, kept as one text (the names joined by
// TechniqueSeparator) so a Puzzle stays comparable and the archive stores
// it in one column. Its JSON form is an array of names.
type Techniques string

// TechniqueSeparator joins the names of a Techniques; no name holds it.
const TechniqueSeparator = "|"

// JoinTechniques returns names as a Techniques. A name holding the
// separator is a programming error: it panics.
func JoinTechniques(names []string) Techniques {
	for _, n := range names {
		if n == "" || strings.Contains(n, TechniqueSeparator) {
			panic(fmt.Sprintf("technique name %q is empty or holds %q", n, TechniqueSeparator))
		}
	}
	return Techniques(strings.Join(names, TechniqueSeparator))
}

// Names returns the technique names, nil for none.
func (t Techniques) Names() []string {
	if t == "" {
		return nil
	}
	return strings.Split(string(t), TechniqueSeparator)
}

// MarshalJSON writes t as an array of names ([] for none).
func (t Techniques) MarshalJSON() ([]byte, error) {
	names := t.Names()
	if names == nil {
		names = []string{}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads an array of names (null for none).
func (t *Techniques) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("techniques: %w", err)
	}
	for _, n := range names {
		if n == "" || strings.Contains(n, TechniqueSeparator) {
			return fmt.Errorf("techniques: invalid name %q", n)
		}
	}
	*t = Techniques(strings.Join(names, TechniqueSeparator))
	return nil
}

// TechniqueCount is how many archived puzzles use a technique in their
// logical path (Puzzles) and need it as their hardest (Hardest).
type TechniqueCount struct {
	Name             string
	Puzzles, Hardest int64
}
