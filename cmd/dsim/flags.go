package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlags makes a command's flag set; synopsis is the line after "usage: dsim".
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: dsim %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags that may come before, between or after the positional
// arguments, and returns the positional ones. On failure it returns the exit
// code: 0 for -h, 2 for a bad flag (the flag package has printed why).
func parse(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitError, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// usageError reports a misuse the flag package cannot see (a missing file,
// a bad flag value) and returns the exit code.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "dsim %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitError
}

// isSet reports whether the flag was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
