package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"dsim/core/algo"
	"dsim/core/script"
	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "list [--json] [ALGORITHM | FAMILY]", stderr)
	asJSON := fs.Bool("json", false, "write the algorithms as a JSON array, for programs")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	switch len(pos) {
	case 0:
		if *asJSON {
			return listJSON(stdout, stderr, algo.All())
		}
		listAll(stdout)
		return exitOK
	case 1:
		specs := family(pos[0])
		if specs == nil {
			spec, err := algo.Lookup(pos[0])
			if err != nil {
				fmt.Fprintf(stderr, "dsim list: %v\n", err)
				return exitError
			}
			specs = []*algo.Spec{spec}
		}
		if *asJSON {
			return listJSON(stdout, stderr, specs)
		}
		for i, spec := range specs {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			listAlgorithm(stdout, spec)
		}
		return exitOK
	}
	return usageError(fs, stderr, "want at most one algorithm or family name, got %d", len(pos))
}

// family is the algorithms of the family named name ("order"), nil for
// a name that is none.
func family(name string) []*algo.Spec {
	var out []*algo.Spec
	for _, s := range algo.All() {
		if s.Family() == name {
			out = append(out, s)
		}
	}
	return out
}

func listAll(w io.Writer) {
	fmt.Fprintln(w, "ALGORITHMS by family (dsim list NAME shows one, dsim list FAMILY a family)")
	fmt.Fprintln(w)
	all := algo.All()
	width := len("algorithm")
	for _, s := range all {
		width = max(width, len(s.Name))
	}
	// One table for all families, so that its columns line up across
	// the families' headings.
	fmt.Fprintf(w, "    %-*s  %-9s  %s\n", width, "algorithm", "largest n", "with trace = false")
	for i, s := range all {
		if f := s.Family(); i == 0 || all[i-1].Family() != f {
			fmt.Fprintf(w, "  %s: %s\n", f, algo.FamilyTitle(f))
		}
		traced, untraced := largestN(s)
		fmt.Fprintf(w, "    %-*s  %-9d  %d\n", width, s.Name, traced, untraced)
	}
	fmt.Fprintf(w, "  (%s)\n\n", largestNDoc)
	for _, s := range algo.All() {
		listAlgorithm(w, s)
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "TOPOLOGIES (sim.world{topology = NAME})")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, k := range topo.Kinds {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Name, k.Doc)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "LATENCY DISTRIBUTIONS (latency = {NAME, a, b}; a plain number is constant; dsim api says what a and b mean)")
	for _, names := range distributions() {
		fmt.Fprintf(w, "  %s\n", strings.Join(names, ", "))
	}
}

func listAlgorithm(w io.Writer, s *algo.Spec) {
	fmt.Fprintf(w, "%s — %s\n", s.Name, s.Summary)
	fmt.Fprintf(w, "  default topology: %s\n", s.Topology)
	traced, untraced := largestN(s)
	fmt.Fprintf(w, "  largest n: %d, %d with trace = false (about %s per process), under the default memory budget of %d MiB\n",
		traced, untraced, perProcess(s, traced), script.CLI.Memory>>20)
	for _, line := range strings.Split(strings.TrimSpace(s.Description), "\n") {
		fmt.Fprintf(w, "  %s\n", strings.TrimSpace(line))
	}
	fmt.Fprintf(w, "  assumes (a world outside them warns):\n")
	for _, line := range s.Assumptions.Lines() {
		fmt.Fprintf(w, "    %s\n", line)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	section := func(title string, empty bool) {
		if !empty {
			tw.Flush()
			fmt.Fprintf(w, "  %s:\n", title)
		}
	}
	section("config", len(s.Config) == 0)
	for _, p := range s.Config {
		fmt.Fprintf(tw, "    %s\t%s\tdefault %s\t%s%s\n", p.Name, p.Type, trace.AppendJSON(nil, p.Default), p.Doc, bounds(p))
	}
	section("commands", len(s.Commands) == 0)
	for _, c := range s.Commands {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", c.Name, c.Args, c.Doc)
	}
	section("state", len(s.State) == 0)
	for _, k := range s.State {
		fmt.Fprintf(tw, "    %s\t%s\n", k.Key, k.Doc)
	}
	section("messages (fields as in traces and w:inject)", len(s.Messages) == 0)
	for _, m := range s.Messages {
		fmt.Fprintf(tw, "    %s\t%s\n", m.Kind(), trace.AppendJSON(nil, m))
	}
	tw.Flush()
	if len(s.Properties) > 0 {
		fmt.Fprintf(w, "  properties: %s\n", strings.Join(algo.PropertyNames(s.Properties), ", "))
	}
}

// largestNDoc says what the largest n of an algorithm is.
var largestNDoc = fmt.Sprintf("the most processes sim.world admits on the algorithm's default topology under the default memory budget of %d MiB (dsim run --memory changes it), at most %d",
	script.CLI.Memory>>20, topo.MaxN)

// largestN is the most processes a world of s can have under the CLI's
// default memory budget, traced (as worlds are unless told otherwise) and
// not.
func largestN(s *algo.Spec) (traced, untraced int) {
	return script.LargestN(s, script.CLI.Memory, true), script.LargestN(s, script.CLI.Memory, false)
}

// perProcess is the memory a traced world of n processes of s is
// estimated to need per process.
func perProcess(s *algo.Spec, n int) string {
	if n < 1 {
		return "more than the budget"
	}
	b := script.MemoryEstimate(s, n, true) / uint64(n)
	if b < 10<<10 {
		return fmt.Sprintf("%d bytes", b)
	}
	return fmt.Sprintf("%d KiB", (b+512)>>10)
}

func bounds(p algo.Param) string {
	if p.Min == p.Max {
		return ""
	}
	return fmt.Sprintf(" [%s, %s]", strconv.FormatFloat(p.Min, 'f', -1, 64), strconv.FormatFloat(p.Max, 'f', -1, 64))
}

// distributions groups the latency distribution names by kind: the
// canonical name first, then its aliases.
func distributions() [][]string {
	byKind := map[sim.DistKind][]string{}
	for name, k := range sim.DistKinds {
		byKind[k] = append(byKind[k], name)
	}
	kinds := make([]sim.DistKind, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	var out [][]string
	for _, k := range kinds {
		names := byKind[k]
		sort.Slice(names, func(i, j int) bool {
			if (names[i] == k.String()) != (names[j] == k.String()) {
				return names[i] == k.String()
			}
			return names[i] < names[j]
		})
		out = append(out, names)
	}
	return out
}

// jsonAlgorithm is one algorithm in dsim list --json.
type jsonAlgorithm struct {
	Name        string          `json:"name"`
	Family      string          `json:"family"` // the family's title
	Summary     string          `json:"summary"`
	Description string          `json:"description"`
	Topology    string          `json:"topology"`
	Config      []jsonParam     `json:"config"`
	Commands    []jsonCommand   `json:"commands"`
	State       []jsonStateKey  `json:"state"`
	Messages    map[string]any  `json:"messages"` // kind -> zero value, as in traces
	Assumptions jsonAssumptions `json:"assumptions"`
	Properties  []string        `json:"properties"`
	LargestN    int             `json:"largest_n"`          // traced, under the default memory budget
	LargestNRaw int             `json:"largest_n_untraced"` // with trace = false
}

type jsonParam struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Default any     `json:"default"`
	Doc     string  `json:"doc"`
	Min     float64 `json:"min"` // min == max: no bounds
	Max     float64 `json:"max"`
}

type jsonStateKey struct {
	Key string `json:"key"`
	Doc string `json:"doc"`
}

type jsonCommand struct {
	Name string `json:"name"`
	Args string `json:"args"`
	Doc  string `json:"doc"`
}

type jsonAssumptions struct {
	FIFO        bool   `json:"fifo"`
	Loss        bool   `json:"loss"`
	Duplication bool   `json:"duplication"`
	Partitions  bool   `json:"partitions"`
	Crashes     string `json:"crashes"` // "none", "crash-stop" or "crash-recovery"
	// LatencyBound is null for none.
	LatencyBound *jsonLatency `json:"latency_bound"`
}

// jsonLatency is algo.LatencyBound: trips link crossings take at most the
// config key's ticks, or less than them for a timeout.
type jsonLatency struct {
	Key     string `json:"key"`
	Trips   int    `json:"trips"`
	Timeout bool   `json:"timeout"`
}

func listJSON(stdout, stderr io.Writer, specs []*algo.Spec) int {
	out := make([]jsonAlgorithm, len(specs))
	for i, s := range specs {
		a := s.Assumptions
		j := jsonAlgorithm{
			Name: s.Name, Family: algo.FamilyTitle(s.Family()), Summary: s.Summary, Description: s.Description, Topology: s.Topology,
			Config: []jsonParam{}, Commands: []jsonCommand{}, State: []jsonStateKey{}, Messages: map[string]any{},
			Assumptions: jsonAssumptions{FIFO: a.FIFO, Loss: a.Loss, Duplication: a.Duplication, Partitions: a.Partitions, Crashes: a.Crashes.String()},
			Properties:  algo.PropertyNames(s.Properties),
		}
		if b := a.Latency; b.Key != "" {
			j.Assumptions.LatencyBound = &jsonLatency{b.Key, b.Trips, b.Timeout}
		}
		for _, c := range s.Commands {
			j.Commands = append(j.Commands, jsonCommand{c.Name, c.Args, c.Doc})
		}
		for _, k := range s.State {
			j.State = append(j.State, jsonStateKey{k.Key, k.Doc})
		}
		for _, p := range s.Config {
			j.Config = append(j.Config, jsonParam{p.Name, string(p.Type), p.Default, p.Doc, p.Min, p.Max})
		}
		for _, m := range s.Messages {
			j.Messages[m.Kind()] = json.RawMessage(trace.AppendJSON(nil, m))
		}
		j.LargestN, j.LargestNRaw = largestN(s)
		out[i] = j
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "dsim list: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return exitOK
}
