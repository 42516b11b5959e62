package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"dsim/core/script"
	"dsim/core/trace"
)

// runFlags are the flags run and check share: --seed, --memory and
// --instructions; options turns them into script options.
type runFlags struct {
	fs           *flag.FlagSet
	seed         *uint64
	memory       *uint64
	instructions *int64
}

func addRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{fs,
		fs.Uint64("seed", 1, "the run seed `N`; when given, it overrides every world's own seed"),
		fs.Uint64("memory", script.CLI.Memory>>20, fmt.Sprintf("the run's memory budget in `MiB` (at most %d)", script.CLI.MaxMemory>>20)),
		fs.Int64("instructions", script.CLI.Instructions, "the run's instruction budget `N` (Lua instructions and the Go work done for the script)"),
	}
}

// options are the script options of the flags, or an error naming a bad
// flag.
func (f runFlags) options(out io.Writer) (script.Options, error) {
	if *f.memory < 1 || *f.memory > script.CLI.MaxMemory>>20 {
		return script.Options{}, fmt.Errorf("--memory %d: want 1 to %d MiB", *f.memory, script.CLI.MaxMemory>>20)
	}
	if *f.instructions < 1 {
		return script.Options{}, fmt.Errorf("--instructions %d: want at least 1", *f.instructions)
	}
	budget := *f.memory << 20
	// Under an address-space limit the process needs room for about twice
	// the budget (the heap the collector has not yet reclaimed, and the
	// runtime's reservations): a budget beyond that would end in the
	// runtime's own out-of-memory crash rather than the budget's error.
	if limit, ok := addressSpace(); ok && isSet(f.fs, "memory") && 2*budget+memorySlack > limit {
		return script.Options{}, fmt.Errorf("--memory %d: the address-space limit (ulimit -v) of %d MiB leaves room for a budget of at most %d MiB", *f.memory, limit>>20, (limit-min(limit, memorySlack))>>21)
	}
	// The guard counts the heap's objects, and stops a run holding more
	// than its budget; the runtime's soft limit makes the collector keep
	// the whole process near that too (by default it lets the heap reach
	// several times what is live before collecting). A GOMEMLIMIT in the
	// environment is the user's choice.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(budget + budget/4 + memorySlack))
	}
	return script.Options{Seed: *f.seed, SeedSet: isSet(f.fs, "seed"), Out: scriptOutput{out}, MaxMemory: budget, Budget: *f.instructions}, nil
}

// memorySlack is what the process needs beyond a run's budget: the Go
// runtime, the program and the libraries.
const memorySlack = 64 << 20

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
		fmt.Fprintln(stderr, oneLine(se.Error()))
		return
	}
	fmt.Fprintf(stderr, "dsim: %s\n", oneLine(err.Error()))
}

// oneLine escapes the line breaks and the other control bytes of a message
// from a script: every PASS, FAIL and ERROR is one line, a message cannot
// fake another, nor the summary a grader reads, and it cannot send the
// terminal escape sequences (clear the screen, rewrite a line).
func oneLine(s string) string {
	return string(appendEscaped(nil, s, false))
}

// appendEscaped appends s with its C0 control bytes and DEL escaped (\r,
// \n, or \xHH), tabs aside, and line feeds too when lines is set.
func appendEscaped(b []byte, s string, lines bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t', c == '\n' && lines, c >= 0x20 && c != 0x7f:
			b = append(b, c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		default:
			b = fmt.Appendf(b, `\x%02x`, c)
		}
	}
	return b
}

// scriptOutput writes what a script prints (print, log, report) with its
// control bytes escaped, as oneLine does, but its lines as they are: a
// script run from a grader's terminal cannot take the terminal over.
type scriptOutput struct{ w io.Writer }

func (o scriptOutput) Write(p []byte) (int, error) {
	if _, err := o.w.Write(appendEscaped(nil, string(p), true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", "run FILE [--seed N] [--memory MiB] [--instructions N] [--format text|jsonl|shiviz]", stderr)
	flags := addRunFlags(fs)
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
	opt, err := flags.options(stderr)
	if err != nil {
		return usageError(fs, stderr, "%v", err)
	}
	res, runErr := runFile(pos[0], opt)
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
		notes(stderr, pos[0], res)
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

// notes tells the user, on stderr, of the run limits a run hit and the
// worlds that left their algorithms' assumptions.
func notes(stderr io.Writer, name string, res *script.Result) {
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "%s: note: %s\n", name, oneLine(n))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "%s:%d: warning: world %d: %s\n", name, w.Line, w.World, oneLine(w.Text))
	}
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
	fs := newFlags("check", "check [--seed N] [--memory MiB] [--instructions N] [--junit FILE] FILE...", stderr)
	flags := addRunFlags(fs)
	junit := fs.String("junit", "", "also write the results as JUnit XML to this `file`")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		return usageError(fs, stderr, "no scenario files given")
	}
	opt, err := flags.options(stderr)
	if err != nil {
		return usageError(fs, stderr, "%v", err)
	}
	var results []fileResult
	passed, failed, errs := 0, 0, 0
	for _, name := range pos {
		res, err := runFile(name, opt)
		fr := fileResult{name: name, err: err}
		if res != nil {
			fr.checks = res.Checks
			notes(stderr, name, res)
		}
		for _, c := range fr.checks {
			verdict := "PASS"
			if c.Pass {
				passed++
			} else {
				verdict = "FAIL"
				failed++
			}
			fmt.Fprintf(stdout, "%s %s:%d %s\n", verdict, name, c.Line, oneLine(c.Text))
		}
		if err != nil {
			// A scenario that stopped on an error is a failure of its own:
			// it counts in the summary, not only on stderr.
			fmt.Fprintf(stdout, "ERROR %s\n", oneLine(err.Error()))
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
