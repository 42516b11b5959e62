// Command dsim runs Lua scenarios of distributed algorithms headless: it
// prints traces, grades expectations, lists the algorithms and benchmarks the
// kernel. See `dsim help`.
package main

import (
	"fmt"
	"io"
	"os"

	_ "dsim/core/algo/all" // every algorithm, for run, check, list and bench
)

// Exit codes: 0 success, 1 an expectation failed, 2 the command could not do
// its job (bad usage, unreadable file, script error).
const (
	exitOK     = 0
	exitFailed = 1
	exitError  = 2
)

const usage = `dsim runs deterministic simulations of distributed algorithms from Lua scenarios.

usage: dsim <command> [arguments]

commands:
  run FILE [--seed N] [--memory MiB] [--instructions N] [--format text|jsonl|shiviz]
        run a scenario; print the trace of every world it builds to stdout
        (the script's print() output goes to stderr); --memory and
        --instructions set the run's budgets (384 MiB, 200000000)
  check [--seed N] [--memory MiB] [--instructions N] [--junit FILE] FILE...
        run scenarios; print PASS/FAIL file:line for every expectation (ERROR
        for a script error, counted as failed) and a closing "N passed,
        N failed" line; exit 1 if any failed, 2 on a script error
  list [--json] [ALGORITHM | FAMILY]
        algorithms with their assumptions, configuration, commands, state
        keys and messages (--json: as JSON); topologies; latency
        distributions
  api   the Lua scenario API reference (Markdown)
  bench [--quick] [--runs N]
        run the built-in benchmark suite and print a table (--runs: best of N)
  serve [--port N] [--dir DIR]
        serve the browser playground (built by ./build.sh) on 127.0.0.1
  help  this text

Flags may come before or after FILE. Exit status: 0 ok, 1 an expectation
failed, 2 a script error (reported as FILE:LINE: message), an unreadable
file (or one of more than 1 MiB) or bad usage.
`

func main() {
	if len(os.Args) > 1 {
		tuneGC(os.Args[1])
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole CLI behind main, so tests can drive it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(rest, stdout, stderr)
	case "check":
		return cmdCheck(rest, stdout, stderr)
	case "list":
		return cmdList(rest, stdout, stderr)
	case "api":
		return cmdAPI(rest, stdout, stderr)
	case "bench":
		return cmdBench(rest, stdout, stderr)
	case "serve":
		return cmdServe(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "dsim: unknown command %q\n\n%s", cmd, usage)
	return exitError
}
