package main

import (
	"flag"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// The numeric flags read their values with the one reader of user numbers
// (package userinput, input.go): flag.Int takes "0x10" and "+5", flag.Float64
// takes "NaN" and "Inf". A refused value is a usage error (exit 2) that
// says why.

// wholeValue is a flag.Value for a whole number from lo to hi.
type wholeValue struct {
	name   string
	n      *int64
	lo, hi int64
}

func (w *wholeValue) String() string {
	if w.n == nil {
		return ""
	}
	return strconv.FormatInt(*w.n, 10)
}

func (w *wholeValue) Set(s string) error {
	n, err := userinput.ParseWhole("--"+w.name, s, w.lo, w.hi)
	if err != nil {
		return err
	}
	*w.n = n
	return nil
}

// wholeFlag defines a flag for a whole number from lo to hi.
func wholeFlag(fs *flag.FlagSet, name string, def, lo, hi int64, usage string) *int64 {
	n := def
	fs.Var(&wholeValue{name: name, n: &n, lo: lo, hi: hi}, name, usage)
	return &n
}

// rateValue is a flag.Value for a finite decimal number from 0.
type rateValue struct {
	name string
	x    *float64
}

func (r *rateValue) String() string {
	if r.x == nil {
		return ""
	}
	return strconv.FormatFloat(*r.x, 'f', -1, 64)
}

func (r *rateValue) Set(s string) error {
	x, err := userinput.ParseRate("--"+r.name, s)
	if err != nil {
		return err
	}
	*r.x = x
	return nil
}

// rateFlagVar defines a flag for a finite decimal number from 0 into x.
func rateFlagVar(fs *flag.FlagSet, x *float64, name string, def float64, usage string) {
	*x = def
	fs.Var(&rateValue{name: name, x: x}, name, usage)
}

// gradeValue is a flag.Value for one grade (userinput.ParseGrade), kept in
// tenths as the archive keeps grades; 0 while unset.
type gradeValue struct {
	name   string
	tenths int64
}

func (g *gradeValue) String() string {
	if g == nil || g.tenths == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(g.tenths)/10, 'f', 1, 64)
}

func (g *gradeValue) Set(s string) error {
	x, err := userinput.ParseGrade("--"+g.name, s)
	if err != nil {
		return err
	}
	g.tenths = userinput.Tenths(x)
	return nil
}

// manyValue is a flag.Value that may be given several times: each value,
// in order.
type manyValue []string

func (m *manyValue) String() string {
	if m == nil {
		return ""
	}
	return strings.Join(*m, ", ")
}

func (m *manyValue) Set(s string) error {
	*m = append(*m, s)
	return nil
}
