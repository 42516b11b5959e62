// Package scripttest holds what the tests of the scenario binding and of
// its hosts share: the corpus of hostile scripts.
package scripttest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Hostile is a script written to break the sandbox, with what it must end
// in. Its header comments say so: `-- output: LINE` for each line it prints,
// `-- error: REGEXP` for its one error (none: it must end without one), and
// `-- budget: N` for an instruction budget it needs beyond the tests' own.
type Hostile struct {
	Name   string // the file's base name
	Src    []byte
	Output string
	Error  *regexp.Regexp
	Budget int64
}

// LoadHostile reads the corpus in dir.
func LoadHostile(dir string) ([]Hostile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.lua"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no hostile scripts in %s", dir)
	}
	var out []Hostile
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		h := Hostile{Name: filepath.Base(f), Src: src}
		for _, line := range strings.Split(string(src), "\n") {
			if s, ok := strings.CutPrefix(line, "-- output: "); ok {
				h.Output += s + "\n"
			}
			if s, ok := strings.CutPrefix(line, "-- budget: "); ok {
				if h.Budget, err = strconv.ParseInt(s, 10, 64); err != nil {
					return nil, fmt.Errorf("%s: %v", f, err)
				}
			}
			if s, ok := strings.CutPrefix(line, "-- error: "); ok {
				if h.Error, err = regexp.Compile(s); err != nil {
					return nil, fmt.Errorf("%s: %v", f, err)
				}
			}
		}
		out = append(out, h)
	}
	return out, nil
}
