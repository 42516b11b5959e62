package script

import (
	"flag"
	"os"
	"testing"
)

var updateConversions = flag.Bool("update-conversions", false, "rewrite testdata/conversions.golden")

// Every float-to-integer conversion in the binding follows one rule, the
// same natively and under WebAssembly, where Go's own conversions of NaN,
// the infinities and numbers out of range differ (MinInt64 against
// saturation). The build's js/wasm test step runs this test under Node
// against the same golden file, so the two platforms print the same.
func TestConversionsAreTheSameEverywhere(t *testing.T) {
	src, err := os.ReadFile("testdata/conversions.lua")
	if err != nil {
		t.Fatal(err)
	}
	_, out, err := run(t, string(src))
	if err != nil {
		t.Fatalf("script error: %v\n%s", err, out)
	}
	const golden = "testdata/conversions.golden"
	if *updateConversions {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s (go test -run Conversions -update-conversions rewrites it):\n%s", golden, out)
	}
}
