package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// rowFieldsRequired are the fields every engine.Row literal names. InDom is
// among them because instance domain 0 is a real one: a row that left it
// out would silently join it. Cluster, Item and Units may be left out, as
// their zero values are real choices (item 0, no units).
var rowFieldsRequired = []string{"Name", "Type", "Sem", "InDom"}

// TestRowsNameEveryField fails on an engine.Row literal, in any non-test
// file of the repository, that leaves out a required field or gives its
// fields by position.
func TestRowsNameEveryField(t *testing.T) {
	rows := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isRowType(lit.Type, f.Name.Name) {
				return true
			}
			rows++
			if missing := rowFieldsMissing(lit); len(missing) > 0 {
				t.Errorf("%s: engine.Row leaves out %s", fset.Position(lit.Pos()), strings.Join(missing, ", "))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows < 800 {
		t.Errorf("found %d engine.Row literals, expected the collectors' 800 and more", rows)
	}
}

// isRowType tells whether a composite literal's type is engine.Row (or Row
// within package engine).
func isRowType(e ast.Expr, pkg string) bool {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "engine" && x.Sel.Name == "Row"
	case *ast.Ident:
		return pkg == "engine" && x.Name == "Row"
	}
	return false
}

// rowFieldsMissing lists the required fields lit does not name; a field
// given by position counts as not named.
func rowFieldsMissing(lit *ast.CompositeLit) []string {
	named := map[string]bool{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return []string{"every name (its fields are positional)"}
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			named[id.Name] = true
		}
	}
	var missing []string
	for _, f := range rowFieldsRequired {
		if !named[f] {
			missing = append(missing, f)
		}
	}
	return missing
}
