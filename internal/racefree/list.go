package racefree

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// importPath is this package's import path, as test files import it.
const importPath = "github.com/sudoku-archive/sudoku/internal/racefree"

// List returns, sorted and without repeats, the names of the top-level
// test functions in the _test.go files under root that call Only as a
// statement of their own body. Any other call of Only is an error naming
// its position. Directories named testdata, and those starting with . or
// _, are left out, as the go command leaves them out.
func List(root string) ([]string, error) {
	var names []string
	var errs []error
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		found, bad := scanFile(fset, f)
		names = append(names, found...)
		errs = append(errs, bad...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// scanFile returns the tests of f that call Only as their own statement, and
// an error for every other call of it.
func scanFile(fset *token.FileSet, f *ast.File) (names []string, errs []error) {
	local := localName(f)
	if local == "" {
		return nil, nil
	}
	isOnly := func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Only" {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == local
	}
	allowed := map[ast.Node]bool{}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil || fn.Recv != nil || !isTest(fn) {
			continue
		}
		for _, stmt := range fn.Body.List {
			if es, ok := stmt.(*ast.ExprStmt); ok && isOnly(es.X) {
				allowed[es.X] = true
				names = append(names, fn.Name.Name)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n != nil && isOnly(n) && !allowed[n] {
			errs = append(errs, fmt.Errorf("%s: racefree.Only called outside a statement of a top-level test function's own body: under -race its test would skip and never be named for the second pass", fset.Position(n.Pos())))
		}
		return true
	})
	return names, errs
}

// localName is the name f imports this package under, or "".
func localName(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != importPath {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "racefree"
	}
	return ""
}

// isTest reports whether fn is a test function go test runs: TestXxx with
// one parameter of type *testing.T.
func isTest(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	rest, ok := strings.CutPrefix(name, "Test")
	if r, _ := utf8.DecodeRuneInString(rest); !ok || unicode.IsLower(r) {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// Pattern is the go test -run pattern that selects exactly the named
// top-level tests (and all their subtests); with no names it selects none.
func Pattern(names []string) string {
	if len(names) == 0 {
		return "^$"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}
