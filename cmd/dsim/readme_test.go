package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
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

// fenced returns the body of the first ```lang block after the heading.
func fenced(t *testing.T, readme, heading, lang string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", heading)
	}
	_, rest, ok = strings.Cut(rest, "```"+lang+"\n")
	if !ok {
		t.Fatalf("README.md section %q has no ```%s block", heading, lang)
	}
	body, _, _ := strings.Cut(rest, "```\n")
	return body
}

// TestReadmeScenario runs the README's scenario the way the README says,
// and checks that the trace excerpt and the check output it shows are what
// dsim prints.
func TestReadmeScenario(t *testing.T) {
	readme := string(readFile(t, readmePath))
	src := fenced(t, readme, "## A scenario", "lua")
	excerpt := fenced(t, readme, "## A scenario", "text")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("ring7.lua", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dsim(t, "run", "ring7.lua")
	wantCode(t, code, exitOK, errOut)
	rest := out
	for _, line := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		_, after, ok := strings.Cut(rest, line+"\n")
		if !ok {
			t.Fatalf("the README's trace excerpt has %q, which dsim run does not print (in that order); it prints:\n%s", line, out)
		}
		rest = after
	}
	code, out, errOut = dsim(t, "check", "ring7.lua")
	wantCode(t, code, exitOK, errOut)
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.Contains(readme, "`"+line+"`") {
			t.Errorf("dsim check prints %q, which the README does not show", line)
		}
	}
}

// TestReadmePaths keeps the scenario paths the README names pointing at
// files that exist.
func TestReadmePaths(t *testing.T) {
	readme := readFile(t, readmePath)
	paths := regexp.MustCompile(`scripts/[\w/.-]+\.lua`).FindAll(readme, -1)
	if len(paths) == 0 {
		t.Fatal("the README names no scenario file")
	}
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join("../..", string(p))); err != nil {
			t.Errorf("README.md names %s: %v", p, err)
		}
	}
}
