// Command list prints the -run pattern of the tests that make test runs in
// its second pass, without the race detector: every top-level test function
// under the directory given (default .) whose body calls racefree.Only as
// one of its own statements.
//
//	go test -run "$(go run ./internal/racefree/list)" ./...
//
// A call to racefree.Only anywhere else (a helper, a subtest, a non-test
// function) is an error: its test would skip under -race and never be named
// for the second pass, so it would run nowhere.
package main

import (
	"fmt"
	"os"

	"github.com/sudoku-archive/sudoku/internal/racefree"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	names, err := racefree.List(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "racefree:", err)
		os.Exit(1)
	}
	fmt.Println(racefree.Pattern(names))
}
