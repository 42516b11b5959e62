package scripts

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// files holds the shipped scenarios, so the playground (js/wasm) and the CLI
// carry them without reading the disk.
//
//go:embed examples
var files embed.FS

// Example is one shipped scenario.
type Example struct {
	Path        string // relative to scripts/examples, slash-separated: "election/bully-textbook.lua"
	Family      string // its directory: "election"
	Title       string // the first line of the description, or the file name without ".lua"
	Description string // the opening comment block, without the comment markers
	Source      string
}

// List returns every example, sorted by path (so grouped by family).
func List() ([]Example, error) {
	var out []Example
	err := fs.WalkDir(files, "examples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lua") {
			return err
		}
		src, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "examples/")
		ex := Example{Path: rel, Family: path.Dir(rel), Source: string(src)}
		ex.Description = description(ex.Source)
		ex.Title, _, _ = strings.Cut(ex.Description, "\n")
		if ex.Title == "" {
			ex.Title = strings.TrimSuffix(path.Base(rel), ".lua")
		}
		out = append(out, ex)
		return nil
	})
	return out, err
}

// description is the block of `--` comment lines a scenario opens with
// (blank lines before it are skipped), each without its marker and the one
// space after it; blank comment lines separate paragraphs.
func description(src string) string {
	var lines []string
	for line := range strings.Lines(src) {
		line = strings.TrimRight(line, " \t\r\n")
		text, ok := strings.CutPrefix(line, "--")
		if !ok {
			if line == "" && len(lines) == 0 {
				continue
			}
			break
		}
		lines = append(lines, strings.TrimPrefix(text, " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
