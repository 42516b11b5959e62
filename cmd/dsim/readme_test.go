package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"dsim/core/script"
)

var update = flag.Bool("update", false, "rewrite the Lua API section of README.md from script.Reference()")

const (
	readmePath = "../../README.md"
	apiBegin   = "<!-- api:begin -->\n"
	apiEnd     = "<!-- api:end -->"
)

// TestReadmeAPIReference keeps the README's Lua API section identical to
// script.Reference(), which is generated from the binding itself.
func TestReadmeAPIReference(t *testing.T) {
	readme := readFile(t, readmePath)
	i := bytes.Index(readme, []byte(apiBegin))
	j := bytes.Index(readme, []byte(apiEnd))
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q ... %q markers", readmePath, apiBegin, apiEnd)
	}
	want := readmeAPI(script.Reference())
	got := string(readme[i+len(apiBegin) : j])
	if got == want {
		return
	}
	if *update {
		out := append(append(append([]byte{}, readme[:i+len(apiBegin)]...), want...), readme[j:]...)
		if err := os.WriteFile(readmePath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the Lua API section of README.md is out of date: run go test ./cmd/dsim -update")
}

// readmeAPI is the reference as the README holds it: headings one level
// down, so they nest under the README's title.
func readmeAPI(ref string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(ref, "\n")+"\n", "\n")
	inCode := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(l, "#") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "")
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
