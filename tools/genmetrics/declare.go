package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// declaredIn are the packages whose files declare metrics.
var declaredIn = []string{"collector", "collector/network", "collector/mmvfiles", "collector/proc", "engine"}

// declarations maps every metric name written out as a Go string literal
// ("hostcache.…") in a non-test file of the declaring packages to the
// files it appears in, relative to root. The project's rule is that a
// metric's full name appears literally where it is declared, so this is
// where each metric is declared.
func declarations(root string) (map[string][]string, error) {
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, dir := range declaredIn {
		paths, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(root, path)
			for _, name := range metricLiterals(f) {
				if files := out[name]; len(files) == 0 || files[len(files)-1] != rel {
					out[name] = append(files, rel)
				}
			}
		}
	}
	return out, nil
}

// metricLiterals lists the string literals of f that look like full
// metric names.
func metricLiterals(f *ast.File) []string {
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err == nil && strings.HasPrefix(s, "hostcache.") && !strings.ContainsAny(s, " %") &&
			!strings.HasSuffix(s, ".") {
			names = append(names, s)
		}
		return true
	})
	return names
}

// baseOf names the metric whose declaration declares name: hostcache.X
// itself, or X for the rates and peaks the engine makes
// (hostcache.rate.X, hostcache.max.Y, hostcache.min.Y).
func baseOf(name string, declared map[string][]string) string {
	if _, ok := declared[name]; ok {
		return name
	}
	rest := strings.TrimPrefix(name, "hostcache.")
	for _, p := range []string{"max.", "min.", "rate."} {
		if r, ok := strings.CutPrefix(rest, p); ok {
			if _, ok := declared["hostcache."+r]; ok {
				return "hostcache." + r
			}
			rest = r
		}
	}
	return "hostcache." + rest
}

// sourceFile returns the one file that declares name, or an error saying
// why there is not exactly one.
func sourceFile(name string, declared map[string][]string) (string, error) {
	base := baseOf(name, declared)
	files := declared[base]
	switch len(files) {
	case 1:
		return files[0], nil
	case 0:
		return "", fmt.Errorf("%s: its name is written out in no file of %v", base, declaredIn)
	}
	sort.Strings(files)
	return "", fmt.Errorf("%s: written out in %d files %v, want the one that declares it", base, len(files), files)
}
