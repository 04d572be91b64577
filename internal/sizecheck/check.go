package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/fzipp/gocyclo"
)

// Marker starts the doc-comment line that exempts a function or a file
// from the size rule and says why, e.g. "// Size: the solver's hot loop".
const Marker = "Size:"

// Limits are the largest sizes allowed.
type Limits struct {
	FuncLines  int // lines from "func" to the closing brace
	Cyclomatic int // gocyclo's cyclomatic complexity
	FileLines  int // lines of a non-generated Go file
}

// DefaultLimits are issue 24's: 80 lines, cyclomatic 25, 700-line files.
var DefaultLimits = Limits{FuncLines: 80, Cyclomatic: 25, FileLines: 700}

// Violation is one function or file over a limit.
type Violation struct {
	Pos   token.Position // the function's "func", or line 1 of the file
	Name  string         // the function ("(T).M" for a method), empty for a file
	What  string         // "lines" or "cyclomatic"
	Size  int
	Limit int
}

func (v Violation) String() string {
	if v.Name == "" {
		return fmt.Sprintf("%s: file has %d lines, over %d", v.Pos.Filename, v.Size, v.Limit)
	}
	return fmt.Sprintf("%s: %s has %d %s, over %d", v.Pos, v.Name, v.Size, v.What, v.Limit)
}

// CheckTree checks every Go file under root, skipping what the go command
// skips (testdata, and directories whose name starts with "." or "_").
func CheckTree(root string, lim Limits) ([]Violation, error) {
	var found []Violation
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		v, err := CheckFile(path, nil, lim)
		found = append(found, v...)
		return err
	})
	return found, err
}

// CheckFile checks one Go file: its source is src, or read from path when
// src is nil.
func CheckFile(path string, src any, lim Limits) ([]Violation, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(f) || strings.HasSuffix(path, "_templ.go") {
		return nil, nil
	}
	var found []Violation
	if n := fset.File(f.Pos()).LineCount(); n > lim.FileLines && !exempt(f.Doc) {
		found = append(found, Violation{Pos: token.Position{Filename: path, Line: 1}, What: "lines", Size: n, Limit: lim.FileLines})
	}
	for _, fn := range functions(f) {
		if exempt(fn.doc) {
			continue
		}
		pos := fset.Position(fn.node.Pos())
		if n := fset.Position(fn.node.End()).Line - pos.Line + 1; n > lim.FuncLines {
			found = append(found, Violation{Pos: pos, Name: fn.name, What: "lines", Size: n, Limit: lim.FuncLines})
		}
		if c := gocyclo.Complexity(fn.node); c > lim.Cyclomatic {
			found = append(found, Violation{Pos: pos, Name: fn.name, What: "cyclomatic", Size: c, Limit: lim.Cyclomatic})
		}
	}
	return found, nil
}

// function is a function declaration, or a function literal assigned to a
// package-level variable (which gocyclo measures too).
type function struct {
	name string
	node ast.Node
	doc  *ast.CommentGroup
}

func functions(f *ast.File) []function {
	var fns []function
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fns = append(fns, function{name: funcName(d), node: d, doc: d.Doc})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				doc := vs.Doc
				if doc == nil {
					doc = d.Doc
				}
				for i, val := range vs.Values {
					if lit, ok := val.(*ast.FuncLit); ok && i < len(vs.Names) {
						fns = append(fns, function{name: vs.Names[i].Name, node: lit, doc: doc})
					}
				}
			}
		}
	}
	return fns
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}

// exempt reports whether a doc comment has a line that starts with Marker
// followed by a reason.
func exempt(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, line := range strings.Split(doc.Text(), "\n") {
		if reason, ok := strings.CutPrefix(strings.TrimSpace(line), Marker); ok && strings.TrimSpace(reason) != "" {
			return true
		}
	}
	return false
}
