package sudoku

// Append appends g as text to b and returns the extended slice: 81
// characters row by row, '1'-'9' for a digit and '.' for a blank, the
// canonical form of storage and output, which Parse and ParseLine read
// back. A value that is no cell is written '?' (Validate reports it).
// It is the one way the module writes a grid as text; appending to a
// reused buffer costs no allocation.
func (g Grid) Append(b []byte) []byte {
	for _, v := range g {
		switch {
		case v == 0:
			b = append(b, '.')
		case v <= 9:
			b = append(b, '0'+v)
		default:
			b = append(b, '?')
		}
	}
	return b
}
