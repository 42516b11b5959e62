package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"dsim/core/script"
)

var update = flag.Bool("update", false, "rewrite docs/reference.md from script.Reference()")

const (
	repoRoot      = "../.."
	readmePath    = repoRoot + "/README.md"
	referencePath = repoRoot + "/docs/reference.md"
)

// referenceHeader opens docs/reference.md, so that nobody edits by hand a
// file the next -update overwrites.
const referenceHeader = "<!-- Generated from the scenario binding and the algorithm registry by\n" +
	"     go test ./cmd/dsim -update (dsim api prints the same text). Do not edit. -->\n\n"

// TestReference keeps docs/reference.md, the Lua API and algorithm
// reference, identical to script.Reference(), which is generated from the
// binding's own tables and the algorithm registry: a change to either makes
// this test fail until the file is regenerated with -update.
func TestReference(t *testing.T) {
	want := referenceHeader + script.Reference()
	got, err := os.ReadFile(referencePath)
	if err == nil && string(got) == want {
		return
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(referencePath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(referencePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/dsim -update", err)
	}
	t.Errorf("docs/reference.md is out of date: run go test ./cmd/dsim -update and review the diff")
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// section returns the README's section under heading, up to the next
// heading of the same level.
func section(t *testing.T, readme, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", heading)
	}
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if i := strings.Index(rest, "\n"+level); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// fenced returns the body of the first ```lang block of a README section.
func fenced(t *testing.T, sec, lang string) string {
	t.Helper()
	_, rest, ok := strings.Cut(sec, "```"+lang+"\n")
	if !ok {
		t.Fatalf("the README section has no ```%s block", lang)
	}
	body, _, _ := strings.Cut(rest, "```\n")
	return body
}

// inOrder reports whether every line of excerpt is a whole line of text,
// in that order (text may have lines between them); if not, it returns the
// first line it could not find.
func inOrder(excerpt, text string) (missing string, ok bool) {
	lines := strings.Split(text, "\n")
	i := 0
	for _, want := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		for i < len(lines) && lines[i] != want {
			i++
		}
		if i == len(lines) {
			return want, false
		}
		i++
	}
	return "", true
}

// TestReadmeScenario holds the README's annotated scenario to the shipped
// file it quotes: the Lua lines it shows are lines of that file, in order;
// the trace excerpt is what dsim run prints for it; the PASS lines it
// quotes are what dsim check prints.
func TestReadmeScenario(t *testing.T) {
	readme := string(readFile(t, readmePath))
	sec := section(t, readme, "## A scenario")
	file := regexp.MustCompile(`scripts/examples/[\w/.-]+\.lua`).FindString(sec)
	if file == "" {
		t.Fatal("the README's scenario section names no scenario file")
	}
	src := string(readFile(t, filepath.Join(repoRoot, file)))
	if line, ok := inOrder(fenced(t, sec, "lua"), src); !ok {
		t.Errorf("the README quotes %q, which %s does not hold (in that order)", line, file)
	}
	t.Chdir(repoRoot)
	code, out, errOut := dsim(t, "run", file)
	wantCode(t, code, exitOK, errOut)
	if line, ok := inOrder(fenced(t, sec, "text"), out); !ok {
		t.Errorf("the README's trace excerpt has %q, which dsim run %s does not print (in that order); it prints:\n%s", line, file, out)
	}
	code, out, errOut = dsim(t, "check", file)
	wantCode(t, code, exitOK, errOut)
	quoted := regexp.MustCompile("`((?:PASS|FAIL) [^`]+|\\d+ passed, \\d+ failed)`").FindAllStringSubmatch(sec, -1)
	if len(quoted) == 0 {
		t.Error("the README's scenario section quotes no dsim check output")
	}
	for _, q := range quoted {
		if !strings.Contains(out, q[1]+"\n") {
			t.Errorf("the README quotes %q, which dsim check %s does not print; it prints:\n%s", q[1], file, out)
		}
	}
}

// TestReadmePaths keeps the files and folders the README names (in
// backquotes or as links) pointing at something that exists.
func TestReadmePaths(t *testing.T) {
	readme := readFile(t, readmePath)
	named := regexp.MustCompile("(?:`|\\]\\()((?:cmd|core|docs|internal|scripts|site|third_party|wasm)/[\\w/.<>-]*)").FindAllSubmatch(readme, -1)
	if len(named) < 10 {
		t.Fatalf("the README names only %d paths", len(named))
	}
	for _, m := range named {
		p := string(m[1])
		if i := strings.IndexByte(p, '<'); i >= 0 {
			p = p[:i] // core/algo/<family>/<name>: the folder before the placeholder
		}
		if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
			t.Errorf("README.md names %s: %v", m[1], err)
		}
	}
}

// TestReadmeCommands keeps the README's synopsis of the CLI the one dsim
// help prints: every command line of the usage text that takes arguments.
func TestReadmeCommands(t *testing.T) {
	readme := string(readFile(t, readmePath))
	for _, line := range strings.Split(usage, "\n") {
		synopsis, ok := strings.CutPrefix(line, "  ")
		if ok && !strings.HasPrefix(synopsis, " ") && strings.Contains(synopsis, "[") && !strings.Contains(readme, "dsim "+synopsis+"\n") {
			t.Errorf("README.md lacks the synopsis %q of dsim help", "dsim "+synopsis)
		}
	}
	if strings.Contains(readme, "<!-- api:begin -->") {
		t.Error("the generated reference lives in docs/reference.md, not in the README")
	}
}
