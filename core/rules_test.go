// Package core_test holds the rules every package under core/ keeps: the
// same script and seed give the same trace everywhere, so nothing in the
// core reaches the host, reads the wall clock or starts a goroutine.
package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// forbidden are the imports no core package may have, and why.
var forbidden = map[string]string{
	"os":          "the host's files and environment",
	"net":         "the network",
	"net/http":    "the network",
	"syscall":     "the host",
	"syscall/js":  "the browser",
	"os/exec":     "other programs",
	"math/rand":   "the global random source (use a stream of the run's seed)",
	"runtime/cgo": "C",
}

// clockFuncs are the functions of package time that read or wait on the
// wall clock. Importing time for its types is allowed: core/script's budget
// is a context.Context, whose Deadline returns a time.Time.
var clockFuncs = map[string]bool{
	"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "Tick": true, "NewTicker": true, "NewTimer": true,
}

func TestCorePackagesStayInside(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		// Test files and test-helper packages (scripttest) read testdata.
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.HasSuffix(filepath.Dir(path), "test") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		timeName := ""
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why, bad := forbidden[p]; bad {
				t.Errorf("%s imports %q (%s)", path, p, why)
			}
			if p == "time" {
				timeName = "time"
				if imp.Name != nil {
					timeName = imp.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%s: a goroutine (%s): the kernel runs on one thread, in one order", path, fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && timeName != "" && x.Name == timeName && clockFuncs[n.Sel.Name] {
					t.Errorf("%s: time.%s (%s): the wall clock differs from run to run", path, n.Sel.Name, fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files: is the test running in core/?", checked)
	}
}

// TestAlgorithmPackagesImportTheContract holds the algorithm packages'
// rule: an algorithm reads as its textbook rules against the contract, so
// it imports only the contract (proc), the registry (algo), composition
// (algo/compose), family helper packages (core/algo/<family>), trace types
// and the standard library: never the kernel, the checkers or the
// binding, not even through another package. A composed algorithm may
// import the algorithm of a layer blank (`_`), so that it is registered:
// layers meet through the registry, commands and state, never each
// other's code.
func TestAlgorithmPackagesImportTheContract(t *testing.T) {
	imports := moduleImports(t)
	allowed := func(p string) bool {
		rest, inAlgo := strings.CutPrefix(p, "dsim/core/algo/")
		switch {
		case !strings.HasPrefix(p, "dsim/"):
			return true // the standard library; the file rule above bans its host packages
		case p == "dsim/core/proc", p == "dsim/core/algo", p == "dsim/core/trace":
			return true
		case inAlgo:
			return !strings.Contains(rest, "/") && rest != "all" && rest != "internal"
		}
		return false
	}
	algorithms := 0
	for pkg := range imports {
		if !isAlgorithm(pkg) {
			continue
		}
		algorithms++
		// Every package it reaches, directly or not, must be allowed.
		seen := map[string]bool{}
		var walk func(p, via string)
		walk = func(p, via string) {
			for _, dep := range imports[p] {
				blank := strings.HasPrefix(dep, "_ ")
				dep = strings.TrimPrefix(dep, "_ ")
				if seen[dep] {
					continue
				}
				seen[dep] = true
				if !allowed(dep) && !(blank && p == pkg && isAlgorithm(dep)) {
					t.Errorf("%s imports %s%s: an algorithm package imports only the contract, the registry, family helpers and trace", pkg, dep, via)
				}
				walk(dep, " (through "+dep+")")
			}
		}
		walk(pkg, "")
	}
	if algorithms < 10 {
		t.Fatalf("found only %d algorithm packages", algorithms)
	}
}

// isAlgorithm reports whether p is an algorithm package,
// core/algo/<family>/<name>.
func isAlgorithm(p string) bool {
	rest, ok := strings.CutPrefix(p, "dsim/core/algo/")
	return ok && strings.Contains(rest, "/") && !strings.HasPrefix(rest, "internal/")
}

// moduleImports maps every package under core/ to the module packages its
// non-test files import, a blank import marked with a leading "_ ".
func moduleImports(t *testing.T) map[string][]string {
	fset := token.NewFileSet()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := "dsim/core"
		if dir := filepath.ToSlash(filepath.Dir(path)); dir != "." {
			pkg += "/" + dir
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if imp.Name != nil && imp.Name.Name == "_" {
				p = "_ " + p
			}
			if strings.HasPrefix(strings.TrimPrefix(p, "_ "), "dsim/") && !slices.Contains(out[pkg], p) {
				out[pkg] = append(out[pkg], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
