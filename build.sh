#!/usr/bin/env bash
# The one build script. Usage:
#
#   ./build.sh          build the CLI to build/dsim and run a shipped example with it
#   ./build.sh serve    the same, for now (the browser playground is not built yet)
#   ./build.sh test     gofmt check, go vet, every Go test natively, then the js/wasm tests under Node
#   ./build.sh bench    the core benchmarks (go test -bench), then `dsim bench` natively and under Node
#
# Test output goes to stdout untouched; this script's own progress lines go to stderr.
set -euo pipefail
cd "$(dirname "$0")"

EXAMPLE=scripts/examples/election/bully-textbook.lua

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

need_go() {
	command -v go >/dev/null || die "Go is not on PATH (this module needs Go $(sed -n 's/^go //p' go.mod) or newer)"
}

# ensure_node makes Node.js available for the js/wasm tests: nothing happens
# when it is already installed.
ensure_node() {
	command -v node >/dev/null && return
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing Node.js (Debian package nodejs)"
		apt-get update -qq && apt-get install -y -qq nodejs >/dev/null
	fi
	command -v node >/dev/null || die "Node.js is needed for the js/wasm tests: install it (e.g. apt-get install nodejs)"
}

# need_wasm makes Node.js available and sets WASM_DIR to the folder of
# go_js_wasm_exec, the runner `go test` uses for GOOS=js GOARCH=wasm when it
# is on PATH.
need_wasm() {
	ensure_node
	WASM_DIR="$(go env GOROOT)/lib/wasm"
	[ -x "$WASM_DIR/go_js_wasm_exec" ] || die "no $WASM_DIR/go_js_wasm_exec in this Go installation"
}

build_cli() {
	say "go build -o build/dsim ./cmd/dsim"
	go build -o build/dsim ./cmd/dsim
}

# --- test steps: each is a function; add a step by writing it and listing it in TEST_STEPS.

step_gofmt() {
	say "gofmt check"
	local files bad
	files=$(git ls-files -co --exclude-standard -- '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')
	bad=$(printf '%s\n' "$files" | xargs -r gofmt -l)
	if [ -n "$bad" ]; then
		printf 'gofmt would change these files (run gofmt -w on them):\n%s\n' "$bad" >&2
		return 1
	fi
}

step_vet() {
	say "go vet ./..."
	go vet ./...
}

step_unit() {
	say "go test ./..."
	go test ./...
}

# The same packages built for js/wasm and run under Node: core must behave
# there exactly as natively, and ./scripts compares every scenario's JSONL
# trace hash with the hashes committed from a native run.
WASM_PACKAGES=(./core/... ./scripts)

step_wasm() {
	need_wasm
	say "GOOS=js GOARCH=wasm go test ${WASM_PACKAGES[*]} (under Node $(node --version))"
	PATH="$WASM_DIR:$PATH" GOOS=js GOARCH=wasm go test "${WASM_PACKAGES[@]}"
}

TEST_STEPS=(step_gofmt step_vet step_unit step_wasm)

cmd_test() {
	need_go
	for step in "${TEST_STEPS[@]}"; do
		"$step"
	done
	say "all test steps passed"
}

cmd_default() {
	need_go
	build_cli
	say "build/dsim run $EXAMPLE"
	build/dsim run "$EXAMPLE"
	say "that was the trace of $EXAMPLE; try build/dsim check scripts/examples/*/*.lua, or build/dsim list"
	say "the browser playground (dsim serve) is not built yet: there is nothing to serve"
}

cmd_bench() {
	need_go
	say "go test -run '^\$' -bench . -benchmem ./core/..."
	go test -run '^$' -bench . -benchmem ./core/...
	build_cli
	say "build/dsim bench"
	build/dsim bench
	need_wasm
	say "GOOS=js GOARCH=wasm go build -o build/dsim.wasm ./cmd/dsim; dsim bench under Node $(node --version)"
	GOOS=js GOARCH=wasm go build -o build/dsim.wasm ./cmd/dsim
	"$WASM_DIR/go_js_wasm_exec" build/dsim.wasm bench
}

case "${1:-}" in
"" | serve) cmd_default ;;
test) cmd_test ;;
bench) cmd_bench ;;
-h | --help | help) sed -n '2,9s/^# \{0,1\}//p' "$0" ;;
*)
	sed -n '2,9s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
