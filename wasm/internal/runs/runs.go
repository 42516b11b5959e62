// Package runs gives the playground's packages real traces to test on: the
// worlds of the shipped example scenarios, as the page reads them.
package runs

import (
	"bytes"
	"fmt"

	_ "dsim/core/algo/all" // the examples name algorithms of every family
	"dsim/core/script"
	"dsim/core/trace"
	"dsim/scripts"
)

// Examples runs every shipped example with seed 1 and returns the worlds
// they made, in order, each read back from its JSONL trace the way the
// page reads the engine's.
func Examples() ([]trace.World, error) {
	list, err := scripts.List()
	if err != nil {
		return nil, err
	}
	var out []trace.World
	for _, ex := range list {
		ws, err := run(ex)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}

// Example is the worlds of the shipped example at path (e.g.
// "examples/snapshot/bank.lua"), as Examples gives them.
func Example(path string) ([]trace.World, error) {
	list, err := scripts.List()
	if err != nil {
		return nil, err
	}
	for _, ex := range list {
		if ex.Path == path {
			return run(ex)
		}
	}
	return nil, fmt.Errorf("no example %s", path)
}

func run(ex scripts.Example) ([]trace.World, error) {
	// A scenario whose expectations fail still made its worlds.
	res, err := script.Run(ex.Path, []byte(ex.Source), script.Options{Seed: 1})
	if res == nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := trace.WriteJSONL(&b, res.Worlds); err != nil {
		return nil, err
	}
	return trace.ReadJSONL(&b)
}
