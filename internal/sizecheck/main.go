// Command sizecheck enforces the house rule on size (issue 24): no function
// over 80 lines or over cyclomatic complexity 25, and no Go file over 700
// lines, tests included, unless the function's or the file's doc comment
// says why in a line that starts with "Size:". Generated files (a
// "Code generated ... DO NOT EDIT." header, such as templ's *_templ.go) are
// exempt. `make lint` runs it on the whole module:
//
//	go run ./internal/sizecheck .
//
// It prints one line per violation, file:line first, and exits 1 when there
// is any; 2 when a file cannot be read or parsed.
//
// The complexity is gocyclo's (github.com/fzipp/gocyclo): one plus one per
// if, for, range, case, select case, && and ||, closures inside included.
// A function's length runs from the line of "func" to that of its closing
// brace, so its doc comment does not count.
package main

import (
	"fmt"
	"os"
)

func main() {
	roots := os.Args[1:]
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var found []Violation
	for _, root := range roots {
		v, err := CheckTree(root, DefaultLimits)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sizecheck:", err)
			os.Exit(2)
		}
		found = append(found, v...)
	}
	for _, v := range found {
		fmt.Println(v)
	}
	if len(found) > 0 {
		fmt.Fprintf(os.Stderr, "sizecheck: %d over the size rule (split them, or give the reason in a %q line of the doc comment; see CONTRIBUTING.md)\n", len(found), Marker)
		os.Exit(1)
	}
}
