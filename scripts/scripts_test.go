package scripts

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/script"
	"dsim/core/trace"
)

var update = flag.Bool("update", false, "rewrite the golden traces under testdata/golden and testdata/hashes.txt")

const (
	goldenDir  = "testdata/golden"
	hashesFile = "testdata/hashes.txt"
	// A golden text trace larger than this keeps only the trace's SHA-256
	// and its first goldenHead lines, so the repository stays small.
	goldenMax  = 200 << 10
	goldenHead = 200
)

// outcome is what running one scenario twice gave.
type outcome struct {
	res          *script.Result
	err          error
	jsonl, again []byte // the JSONL traces of the first and second run
}

var outcomes map[string]*outcome // by path relative to this directory

// scenarios lists every .lua file under this directory (testdata excluded),
// as slash-separated relative paths in lexical order.
func scenarios(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".lua") {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no scenarios found under scripts/")
	}
	return out
}

// runAll runs every scenario twice, once per test binary: the tests below
// all look at the same runs.
func runAll(t *testing.T) ([]string, map[string]*outcome) {
	t.Helper()
	paths := scenarios(t)
	if outcomes != nil {
		return paths, outcomes
	}
	outcomes = map[string]*outcome{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o := &outcome{}
		o.res, o.err = script.Run(p, src, script.Options{Seed: 1})
		o.jsonl = jsonl(t, o.res)
		res2, _ := script.Run(p, src, script.Options{Seed: 1})
		o.again = jsonl(t, res2)
		outcomes[p] = o
	}
	return paths, outcomes
}

func jsonl(t *testing.T, res *script.Result) []byte {
	t.Helper()
	if res == nil {
		return nil
	}
	var b bytes.Buffer
	if err := trace.WriteJSONL(&b, res.Worlds); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestScenarioExpectations(t *testing.T) {
	paths, outs := runAll(t)
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			o := outs[p]
			if o.err != nil {
				t.Fatalf("script error: %v", o.err)
			}
			if len(o.res.Checks) == 0 {
				t.Errorf("%s has no expectations: a scenario must check what it shows", p)
			}
			for _, c := range o.res.Checks {
				if !c.Pass {
					t.Errorf("FAIL %s:%d %s", p, c.Line, c.Text)
				}
			}
			for _, n := range o.res.Notes {
				t.Logf("%s: note: %s", p, n)
			}
		})
	}
}

// TestScenarioDeterminism runs every scenario twice in the same process:
// the JSONL traces must be byte-identical.
func TestScenarioDeterminism(t *testing.T) {
	paths, outs := runAll(t)
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			o := outs[p]
			if len(o.jsonl) == 0 {
				t.Fatalf("no trace (script error: %v)", o.err)
			}
			if line, a, b, same := firstDiff(o.jsonl, o.again); !same {
				t.Fatalf("the second run differs from the first at JSONL line %d:\n first: %s\nsecond: %s", line, a, b)
			}
		})
	}
}

// TestScenarioGolden compares every text trace with its golden file, and
// fails on a golden file whose scenario is gone.
func TestScenarioGolden(t *testing.T) {
	paths, outs := runAll(t)
	want := map[string]bool{}
	for _, p := range paths {
		g := goldenPath(p)
		want[g] = true
		t.Run(p, func(t *testing.T) {
			o := outs[p]
			if o.res == nil {
				t.Fatalf("no trace (script error: %v)", o.err)
			}
			var text bytes.Buffer
			if err := trace.WriteText(&text, o.res.Worlds); err != nil {
				t.Fatal(err)
			}
			got := goldenForm(text.Bytes())
			if *update {
				writeFile(t, g, got)
				return
			}
			old, err := os.ReadFile(g)
			if err != nil {
				t.Fatalf("no golden trace (%v): run go test ./scripts -update and review the new file", err)
			}
			if line, a, b, same := firstDiff(old, got); !same {
				t.Fatalf("the trace differs from %s at line %d:\nwant: %s\n got: %s\n(if the change is intended: go test ./scripts -update, and review the diff)", g, line, a, b)
			}
		})
	}
	err := filepath.WalkDir(goldenDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || want[filepath.ToSlash(p)] {
			return err
		}
		if *update {
			return os.Remove(p)
		}
		t.Errorf("%s has no scenario (its .lua file is gone): delete it, or run go test ./scripts -update", p)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// TestTraceHashes compares the SHA-256 of every scenario's JSONL trace with
// testdata/hashes.txt. The file is written from a native run; the js/wasm
// build runs this same test under Node against the same file, so it fails
// when the WebAssembly engine produces a different trace.
func TestTraceHashes(t *testing.T) {
	paths, outs := runAll(t)
	var list strings.Builder
	for _, p := range paths {
		if outs[p].jsonl == nil {
			t.Errorf("%s: no trace (script error: %v)", p, outs[p].err)
		}
		sum := sha256.Sum256(outs[p].jsonl)
		fmt.Fprintf(&list, "%s  %s\n", hex.EncodeToString(sum[:]), p)
	}
	got := []byte(list.String())
	if *update {
		if runtime.GOOS == "js" {
			t.Fatal("write hashes.txt from a native run: it is the reference the js/wasm build is held to")
		}
		writeFile(t, hashesFile, got)
		return
	}
	old, err := os.ReadFile(hashesFile)
	if err != nil {
		t.Fatalf("%v: run go test ./scripts -update natively", err)
	}
	if line, a, b, same := firstDiff(old, got); !same {
		t.Fatalf("JSONL trace hashes on %s/%s differ from %s at line %d:\nwant: %s\n got: %s", runtime.GOOS, runtime.GOARCH, hashesFile, line, a, b)
	}
}

// goldenPath maps examples/x/y.lua to testdata/golden/examples/x/y.txt.
func goldenPath(p string) string {
	return goldenDir + "/" + strings.TrimSuffix(p, ".lua") + ".txt"
}

// goldenForm is what the golden file holds for a text trace: the trace, or
// for a large one its hash and first lines.
func goldenForm(text []byte) []byte {
	if len(text) <= goldenMax {
		return text
	}
	sum := sha256.Sum256(text)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# sha256 %s of the whole %d-byte trace; its first %d lines follow\n", hex.EncodeToString(sum[:]), len(text), goldenHead)
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, len(text))
	for i := 0; i < goldenHead && sc.Scan(); i++ {
		b.Write(sc.Bytes())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// firstDiff finds the first line where a and b differ (1-based).
func firstDiff(a, b []byte) (line int, la, lb string, same bool) {
	if bytes.Equal(a, b) {
		return 0, "", "", true
	}
	ra, rb := bufio.NewReader(bytes.NewReader(a)), bufio.NewReader(bytes.NewReader(b))
	for line = 1; ; line++ {
		x, errA := ra.ReadString('\n')
		y, errB := rb.ReadString('\n')
		if x != y || errA == io.EOF || errB == io.EOF {
			return line, show(x, errA), show(y, errB), false
		}
	}
}

func show(s string, err error) string {
	if s == "" && err == io.EOF {
		return "(end of file)"
	}
	return strings.TrimSuffix(s, "\n")
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenForm pins the large-trace form: hash line, then the first lines.
func TestGoldenForm(t *testing.T) {
	small := []byte("a\nb\n")
	if got := goldenForm(small); !bytes.Equal(got, small) {
		t.Errorf("a small trace must be kept whole, got %q", got)
	}
	var big bytes.Buffer
	for i := 0; big.Len() <= goldenMax; i++ {
		fmt.Fprintf(&big, "t=%d line %d\n", i, i)
	}
	got := goldenForm(big.Bytes())
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != goldenHead+1 {
		t.Fatalf("want the hash line and %d trace lines, got %d lines", goldenHead, len(lines))
	}
	sum := sha256.Sum256(big.Bytes())
	if !strings.Contains(lines[0], hex.EncodeToString(sum[:])) {
		t.Errorf("first line %q does not carry the trace's SHA-256", lines[0])
	}
	if lines[1] != "t=0 line 0" || lines[goldenHead] != fmt.Sprintf("t=%d line %d", goldenHead-1, goldenHead-1) {
		t.Errorf("the kept lines are not the trace's first %d: %q ... %q", goldenHead, lines[1], lines[goldenHead])
	}
	changed := bytes.Replace(big.Bytes(), []byte("line 5000\n"), []byte("line 5001\n"), 1)
	if bytes.Equal(goldenForm(changed), got) {
		t.Error("a change past the kept lines must change the golden form (through the hash)")
	}
}
