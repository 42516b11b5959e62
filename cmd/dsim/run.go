package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"

	"dsim/core/script"
	"dsim/core/trace"
)

// seedFlag adds --seed; options turns it into script options.
type seedFlag struct {
	fs   *flag.FlagSet
	seed *uint64
}

func addSeed(fs *flag.FlagSet) seedFlag {
	return seedFlag{fs, fs.Uint64("seed", 1, "the run seed `N`; when given, it overrides every world's own seed")}
}

func (s seedFlag) options(out io.Writer) script.Options {
	return script.Options{Seed: *s.seed, SeedSet: isSet(s.fs, "seed"), Out: out}
}

// runFile reads and runs one scenario. The error is a *script.Error for a
// script error (with the partial result), a file too big or a Go panic
// during the run (internalError, no result), or a plain error naming the
// file when it cannot be read (readScript).
func runFile(name string, opt script.Options) (res *script.Result, err error) {
	src, err := readScript(name)
	if err != nil {
		return nil, err
	}
	// A panic is a bug in dsim, but it stops this file only: check goes on
	// with the next one and still writes its summary and report.
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, internalError(name, p)
		}
	}()
	return runScript(name, src, opt)
}

// writeTrace writes the trace to out. A panic in the writer becomes an
// internalError for file, after what was written before it is flushed.
func writeTrace(out io.Writer, write func(io.Writer, []trace.World) error, worlds []trace.World, file string) (err error) {
	w := bufio.NewWriter(out)
	defer func() {
		if p := recover(); p != nil {
			err = internalError(file, p)
			w.Flush()
		}
	}()
	if err := write(w, worlds); err != nil {
		return fmt.Errorf("writing the trace: %v", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing the trace: %v", err)
	}
	return nil
}

// report prints err on stderr: a script error as FILE:LINE: message, anything
// else prefixed with dsim.
func report(stderr io.Writer, err error) {
	var se *script.Error
	if errors.As(err, &se) {
		fmt.Fprintln(stderr, se.Error())
		return
	}
	fmt.Fprintf(stderr, "dsim: %v\n", err)
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", "run FILE [--seed N] [--format text|jsonl|shiviz]", stderr)
	seed := addSeed(fs)
	format := fs.String("format", "text", "trace format: text, jsonl or shiviz (a log ShiViz loads as is)")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(fs, stderr, "want exactly one scenario file, got %d", len(pos))
	}
	write := map[string]func(io.Writer, []trace.World) error{
		"text":   trace.WriteText,
		"jsonl":  trace.WriteJSONL,
		"shiviz": trace.WriteShiViz,
	}[*format]
	if write == nil {
		return usageError(fs, stderr, "unknown format %q (want text, jsonl or shiviz)", *format)
	}
	res, runErr := runFile(pos[0], seed.options(stderr))
	if res != nil {
		// A script that fails half way still shows the trace up to the
		// failure: that is where the bug is.
		if err := writeTrace(stdout, write, res.Worlds, pos[0]); err != nil {
			report(stderr, err)
			if runErr != nil {
				report(stderr, runErr)
			}
			return exitError
		}
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "%s: note: %s\n", pos[0], n)
		}
		if failed := countFailed(res.Checks); failed > 0 {
			fmt.Fprintf(stderr, "%s: %d expectation(s) failed (dsim check %s lists them)\n", pos[0], failed, pos[0])
		}
	}
	if runErr != nil {
		report(stderr, runErr)
		return exitError
	}
	return exitOK
}

func countFailed(checks []script.Check) int {
	n := 0
	for _, c := range checks {
		if !c.Pass {
			n++
		}
	}
	return n
}

// fileResult is what check learned about one file.
type fileResult struct {
	name   string
	checks []script.Check
	err    error // script error, or the file could not be read
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "check [--seed N] [--junit FILE] FILE...", stderr)
	seed := addSeed(fs)
	junit := fs.String("junit", "", "also write the results as JUnit XML to this `file`")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		return usageError(fs, stderr, "no scenario files given")
	}
	var results []fileResult
	passed, failed, errs := 0, 0, 0
	for _, name := range pos {
		res, err := runFile(name, seed.options(stderr))
		fr := fileResult{name: name, err: err}
		if res != nil {
			fr.checks = res.Checks
			for _, n := range res.Notes {
				fmt.Fprintf(stderr, "%s: note: %s\n", name, n)
			}
		}
		for _, c := range fr.checks {
			verdict := "PASS"
			if c.Pass {
				passed++
			} else {
				verdict = "FAIL"
				failed++
			}
			fmt.Fprintf(stdout, "%s %s:%d %s\n", verdict, name, c.Line, c.Text)
		}
		if err != nil {
			// A scenario that stopped on an error is a failure of its own:
			// it counts in the summary, not only on stderr.
			fmt.Fprintf(stdout, "ERROR %v\n", err)
			report(stderr, err)
			errs++
		}
		results = append(results, fr)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed+errs)
	if *junit != "" {
		if err := writeJUnit(*junit, results); err != nil {
			fmt.Fprintf(stderr, "dsim: %v\n", err)
			return exitError
		}
	}
	switch {
	case errs > 0:
		return exitError
	case failed > 0:
		return exitFailed
	}
	return exitOK
}

func cmdAPI(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("api", "api", stderr)
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		return usageError(fs, stderr, "takes no arguments")
	}
	fmt.Fprint(stdout, script.Reference())
	return exitOK
}
