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
