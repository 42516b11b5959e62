package scripts

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestDescription(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"block", "-- Bully: the textbook example\n-- Seven processes.\nlocal w = 1\n", "Bully: the textbook example\nSeven processes."},
		{"leading blank lines", "\n\n-- Title\nx = 1\n", "Title"},
		{"paragraphs and CRLF", "-- Title\r\n--\r\n-- More.\r\nx = 1\r\n", "Title\n\nMore."},
		{"ends at the first code line", "-- A\nx = 1\n-- not part of it\n", "A"},
		{"ends at a blank line", "-- A\n\n-- B\n", "A"},
		{"marker without a space", "--A\n--  indented\n", "A\n indented"},
		{"no comment", "local w = 1\n", ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := description(tc.src); got != tc.want {
				t.Errorf("description(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

// TestList checks the embedded list against the files on disk: every
// example is there once, with its family, its source and a description.
func TestList(t *testing.T) {
	list, err := List()
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	err = filepath.WalkDir("examples", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lua") {
			onDisk = append(onDisk, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(onDisk) || len(list) == 0 {
		t.Fatalf("List() has %d examples, scripts/examples has %d files", len(list), len(onDisk))
	}
	for i, ex := range list {
		if want := strings.TrimPrefix(onDisk[i], "examples/"); ex.Path != want {
			t.Fatalf("example %d is %q, want %q (sorted by path)", i, ex.Path, want)
		}
		src, err := os.ReadFile(onDisk[i])
		if err != nil {
			t.Fatal(err)
		}
		if ex.Source != string(src) {
			t.Errorf("%s: embedded source differs from the file", ex.Path)
		}
		// The menu groups examples by family: none may sit at the top.
		if ex.Family != path.Dir(ex.Path) || ex.Family == "." {
			t.Errorf("%s: family %q, want its directory under examples/", ex.Path, ex.Family)
		}
		// The playground shows the description as the example's explanation.
		if ex.Description == "" || ex.Title == "" {
			t.Errorf("%s: the scenario does not open with a -- comment describing it", ex.Path)
		}
	}
}
