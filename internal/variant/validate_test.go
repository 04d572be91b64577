package variant

import (
	"errors"
	"strings"
	"testing"
)

// TestValidateErrors: each bad puzzle is refused with an error naming the
// rule and, where there is one, the cell.
func TestValidateErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"overlapping cages", `{"givens":"` + dots81 + `","rules":[{"type":"killer","cells":["r1c1","r1c2"],"total":3},{"type":"killer","cells":["r1c2","r1c3"]}]}`, "rule 2 (killer) at r1c2: overlaps rule 1"},
		{"impossible total", `{"givens":"` + dots81 + `","rules":[{"type":"killer","cells":["r1c1","r1c2"],"total":2}]}`, "rule 1 (killer) at r1c1: total 2 is impossible"},
		{"thermo repeats", `{"givens":"` + dots81 + `","rules":[{"type":"thermo","cells":["r1c1","r1c2","r1c1"]}]}`, "rule 1 (thermo) at r1c1: the line repeats"},
		{"line jumps", `{"givens":"` + dots81 + `","rules":[{"type":"whispers","cells":["r1c1","r1c3"]}]}`, "rule 1 (whispers) at r1c3: the line jumps from r1c1"},
		{"cell outside", `{"givens":"` + dots81 + `","rules":[{"type":"odd","cells":["r10c1"]}]}`, "not a cell"},
		{"unknown type", `{"givens":"` + dots81 + `","rules":[{"type":"chess"}]}`, "rule 1 (chess): unknown rule type"},
		{"short region", `{"givens":"` + dots81 + `","rules":[{"type":"jigsaw","regions":"` + strings.Repeat("1", 81) + `"}]}`, "region 1 has 81 cells"},
		{"disconnected region", `{"givens":"` + dots81 + `","rules":[{"type":"jigsaw","regions":"` + disconnected + `"}]}`, "is not connected"},
		{"dot apart", `{"givens":"` + dots81 + `","rules":[{"type":"white","cells":["r1c1","r2c2"]}]}`, "rule 1 (white) at r1c1: needs two cells that share a side"},
		{"odd and even", `{"givens":"` + dots81 + `","rules":[{"type":"odd","cells":["r5c5"]},{"type":"even","cells":["r5c5"]}]}`, "rule 2 (even) at r5c5: the cell is both odd and even"},
		{"given breaks", `{"givens":"1` + dots81[1:] + `","rules":[{"type":"even","cells":["r1c1"]}]}`, "givens at r1c1"},
		{"anti-king givens", `{"givens":"1.........1` + dots81[11:] + `","rules":[{"type":"antiking"}]}`, "givens at r2c2: 1 repeats the 1 at r1c1"},
		{"twice", `{"givens":"` + dots81 + `","rules":[{"type":"antiking"},{"type":"antiking"}]}`, "rule 2 (antiking): given twice"},
		{"little killer inside", `{"givens":"` + dots81 + `","rules":[{"type":"littlekiller","cells":["r5c5"],"dir":"dr","total":10}]}`, "at r5c5: the first cell must be at the edge"},
		{"sandwich", `{"givens":"` + dots81 + `","rules":[{"type":"sandwich","line":"r1","total":1}]}`, "total 1 is impossible"},
		{"arrow far", `{"givens":"` + dots81 + `","rules":[{"type":"arrow","circle":1,"cells":["r1c1","r3c3"]}]}`, "at r3c3: the line does not start next to the circle"},
		{"extra region short", `{"givens":"` + dots81 + `","rules":[{"type":"extraregion","cells":["r1c1","r2c2","r3c3"]}]}`, "rule 1 (extraregion): an extra region holds 9 cells, not 3"},
		{"extra region repeats", `{"givens":"` + dots81 + `","rules":[{"type":"extraregion","cells":["r1c1","r2c2","r3c3","r4c4","r5c5","r6c6","r7c7","r8c8","r1c1"]}]}`, "rule 1 (extraregion) at r1c1: the cell is listed twice"},
		{"extra region givens", `{"givens":"1...........1` + dots81[13:] + `","rules":[{"type":"extraregion","cells":["r1c1","r2c4","r3c3","r4c4","r5c5","r6c6","r7c7","r8c8","r9c9"]}]}`, "givens at r2c4: 1 repeats the 1 at r1c1"},
		{"unknown field", `{"givens":"` + dots81 + `","rules":[{"type":"odd","cells":["r1c1"],"colour":"red"}]}`, "unknown field"},
	} {
		_, err := Parse([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	var big strings.Builder
	big.WriteString(`{"givens":"` + dots81 + `","rules":[`)
	for i := range MaxRules + 1 {
		if i > 0 {
			big.WriteString(",")
		}
		big.WriteString(`{"type":"odd","cells":["r1c1"]}`)
	}
	big.WriteString("]}")
	_, err := Parse([]byte(big.String()))
	var re *RuleError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("too many rules: %v", err)
	}
	if _, err := Parse(make([]byte, MaxBytes+1)); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("too many bytes: %v", err)
	}
}

var dots81 = strings.Repeat(".", 81)

// disconnected is the boxes with r1c1 and r9c9 traded: regions 1 and 9 are
// nine cells each but not connected.
var disconnected = func() string {
	b := []byte{}
	for c := range 81 {
		b = append(b, byte('1'+c/27*3+c%9/3))
	}
	b[0], b[80] = '9', '1'
	return string(b)
}()
