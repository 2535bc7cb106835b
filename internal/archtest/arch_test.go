package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/pmdahostcache/pmdahostcache"

// allowed lists, for each package directory (a prefix: "tools/" covers
// every tool), the project packages it may import. Test files are held to
// the same rule as their package: a test that needs another layer's code
// is a sign the code is in the wrong place. A directory the table does not
// know fails the test, so a new package is placed on purpose.
var allowed = []struct {
	dir     string
	imports []string // "*" is any project package but cmd
}{
	{"cmd/pmdahostcache", []string{"*"}},
	// The collectors know /proc, /sys and the MMV files, never pmda: the
	// collector package's registry lists each part's collectors.
	{"collector", []string{"collector/network", "collector/mmvfiles", "collector/proc", "collector/hostkit",
		"collector/collectortest", "engine", "kernel", "cache", "standin/linuxtable"}},
	{"collector/network", []string{"collector/hostkit", "collector/collectortest", "engine", "kernel", "cache"}},
	{"collector/mmvfiles", []string{"collector/collectortest", "engine", "cache", "mmv", "mmv/mmvtest"}},
	{"collector/proc", []string{"collector/hostkit", "collector/collectortest", "engine", "kernel", "cache",
		"standin/proctable"}},
	// What the collector packages share: leaves below them.
	{"collector/hostkit", []string{"engine", "cache"}},
	{"collector/collectortest", []string{"engine", "cache", "standin/linuxtable"}},
	{"engine", []string{"cache"}},
	{"kernel", nil},
	{"archive", []string{"internal/pcpenc"}},
	{"recorder", []string{"engine", "cache", "archive"}},
	{"cache", []string{"internal/regularfile"}},
	{"pmda/driver", []string{"pmda", "cache"}},
	{"pmda", []string{"cache", "internal/pcpenc"}},
	{"config", []string{"cache", "internal/regularfile"}},
	{"help", []string{"cache", "internal/regularfile"}},
	{"standin", []string{"cache", "standin/linuxtable", "standin/proctable"}},
	{"mmv/mmvtest", nil},
	{"mmv", []string{"mmv/mmvtest"}},
	{"tools/", []string{"*"}},
	{"integration", []string{"*"}},
	// Leaves the agent's own packages share: they import none of ours.
	{"internal/regularfile", nil},
	{"internal/pcpenc", nil},
	{"internal/testenv", nil},
	// pmdalinux's and pmdaproc's generated tables: the stand-in and the
	// twin tests read them.
	{"standin/linuxtable", []string{"cache"}},
	{"standin/proctable", []string{"cache"}},
	{"internal/", []string{"*"}},
}

// rule returns the allowed imports of a package directory.
func rule(dir string) ([]string, bool) {
	for _, r := range allowed {
		if dir == r.dir || (strings.HasSuffix(r.dir, "/") && strings.HasPrefix(dir, r.dir)) {
			return r.imports, true
		}
	}
	return nil, false
}

// stdoutAllowed lists the files that may write to standard output.
var stdoutAllowed = map[string]string{
	"pmda/stdio.go": "the PDU channel itself: a hand-run agent's stdin and stdout",
}

// stdoutFree are the directories whose code runs inside the agent: all
// but the tools, the integration tests and the architecture tests.
func stdoutFree(dir string) bool {
	return !strings.HasPrefix(dir, "tools/") && dir != "integration" && dir != "internal/archtest"
}

func TestImportArrows(t *testing.T) {
	for _, v := range checkTree(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// checkTree returns every rule the Go files below root break.
func checkTree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, checkFile(rel, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFile checks one file's imports and, outside tools and tests, its
// writes to standard output.
func checkFile(rel string, f *ast.File) []string {
	dir := filepath.ToSlash(filepath.Dir(rel))
	imports, known := rule(dir)
	if !known {
		return []string{fmt.Sprintf("%s: package directory %s is not in the architecture table", rel, dir)}
	}
	var out []string
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		pkg, ours := strings.CutPrefix(path, module+"/")
		if !ours || pkg == dir || (strings.HasSuffix(f.Name.Name, "_test") && pkg == dir) {
			continue
		}
		if pkg == "internal/testenv" && strings.HasSuffix(rel, "_test.go") {
			continue // what every package's tests share about the machine
		}
		switch {
		case strings.HasPrefix(pkg, "cmd/"):
			out = append(out, fmt.Sprintf("%s imports %s: nothing may import cmd", rel, pkg))
		case slices.Contains(imports, "*"):
		case !slices.Contains(imports, pkg):
			out = append(out, fmt.Sprintf("%s imports %s: %s may import only %v", rel, pkg, dir, imports))
		}
	}
	if stdoutFree(dir) && !strings.HasSuffix(rel, "_test.go") && stdoutAllowed[filepath.ToSlash(rel)] == "" {
		out = append(out, stdoutWrites(rel, f)...)
	}
	return out
}

// stdoutWrites finds the ways a file writes to standard output.
func stdoutWrites(rel string, f *ast.File) []string {
	var out []string
	report := func(n ast.Node, what string) {
		out = append(out, fmt.Sprintf("%s: %s writes to standard output, which is pmcd's pipe", rel, what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				name := id.Name + "." + x.Sel.Name
				switch name {
				case "os.Stdout", "syscall.Stdout", "unix.Stdout", "fmt.Print", "fmt.Printf", "fmt.Println":
					report(n, name)
				}
			}
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
				report(n, id.Name)
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) > 0 {
				fn := sel.Sel.Name
				if lit, ok := x.Args[0].(*ast.BasicLit); ok && lit.Value == "1" &&
					(fn == "Write" || fn == "NewFile" || fn == "Dup2" || fn == "Dup3") {
					report(n, fmt.Sprintf("%s(1, ...)", fn))
				}
			}
		}
		return true
	})
	return out
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// The checks can fail: a fake tree that breaks each rule is reported.
func TestChecksCatchViolations(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		path := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pmda/x.go", "package pmda\nimport _ \""+module+"/collector\"\n")
	write("engine/y.go", "package engine\nimport _ \""+module+"/cmd/pmdahostcache\"\n")
	write("collector/z.go", "package collector\nimport \"fmt\"\n// fmt.Println in a comment is fine\nfunc f() { fmt.Println(\"x\") }\n")
	write("kernel/w.go", "package kernel\nimport \"syscall\"\nfunc f() { syscall.Write(1, nil) }\n")
	write("newpkg/v.go", "package newpkg\n")
	write("internal/regularfile/u.go", "package regularfile\nimport (\n\"fmt\"\n_ \""+module+"/cache\"\n)\nfunc f() { fmt.Print() }\n")
	write("pmda/stdio.go", "package pmda\nimport \"os\"\nvar _ = os.Stdout\n")
	write("tools/t/main.go", "package main\nimport \"fmt\"\nfunc main() { fmt.Println() }\n")
	got := strings.Join(checkTree(t, root), "\n")
	for _, want := range []string{
		"pmda/x.go imports collector",
		"engine/y.go imports cmd/pmdahostcache: nothing may import cmd",
		"collector/z.go: fmt.Println writes",
		"kernel/w.go: Write(1, ...) writes",
		"newpkg/v.go: package directory newpkg is not in the architecture table",
		"internal/regularfile/u.go imports cache",
		"internal/regularfile/u.go: fmt.Print writes",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("not reported: %s\ngot:\n%s", want, got)
		}
	}
	for _, clean := range []string{"pmda/stdio.go", "tools/t/main.go", "in a comment"} {
		if strings.Contains(got, clean) {
			t.Errorf("%s reported:\n%s", clean, got)
		}
	}
}
