package main

import (
	"encoding/xml"
	"fmt"
	"os"
)

// JUnit XML as CI servers read it: one suite per scenario file, one case per
// expectation, and an error case for a script that stopped with an error.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Failure *junitProblem `xml:"failure,omitempty"`
	Error   *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
}

func writeJUnit(path string, results []fileResult) error {
	var all junitSuites
	for _, r := range results {
		s := junitSuite{Name: r.name}
		for _, c := range r.checks {
			jc := junitCase{Class: r.name, Name: fmt.Sprintf("line %d: %s", c.Line, c.Text)}
			if !c.Pass {
				jc.Failure = &junitProblem{Message: fmt.Sprintf("%s:%d: %s", r.name, c.Line, c.Text)}
				s.Failures++
			}
			s.Cases = append(s.Cases, jc)
		}
		if r.err != nil {
			s.Cases = append(s.Cases, junitCase{Class: r.name, Name: "script", Error: &junitProblem{Message: r.err.Error()}})
			s.Errors++
		}
		s.Tests = len(s.Cases)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Suites = append(all.Suites, s)
	}
	out, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	out = append([]byte(xml.Header), append(out, '\n')...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing the JUnit report: %v", err)
	}
	return nil
}
