#!/usr/bin/env bash
# The one build script. Usage:
#
#   ./build.sh          build the CLI and the playground, run an example with the CLI, then serve
#                       the playground on http://127.0.0.1:8080 (PORT=n to change; Ctrl-C stops)
#   ./build.sh build    the same without serving: build/dsim and build/site, and the example run
#   ./build.sh test     gofmt, go vet, Go tests under Node (js/wasm), browser tests, Go tests natively
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

# ensure_npm installs the pinned JavaScript tools (the editor bundle and the
# browser tests) from package-lock.json, once: again only when the lockfile
# changed since.
ensure_npm() {
	ensure_node
	if ! command -v npm >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing npm (Debian package npm)"
		apt-get update -qq && apt-get install -y -qq npm >/dev/null
	fi
	command -v npm >/dev/null || die "npm is needed to build the playground's editor: install it (e.g. apt-get install npm)"
	if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
		say "npm ci (the pinned editor and test tools of package-lock.json)"
		npm ci --no-audit --no-fund >&2
	fi
}

# ensure_chromium installs Debian's Chromium for the browser tests when it
# is missing.
CHROMIUM=/usr/bin/chromium
ensure_chromium() {
	[ -x "$CHROMIUM" ] && return
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing Chromium (Debian package chromium) for the browser tests"
		apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null
	fi
	[ -x "$CHROMIUM" ] || die "the browser tests need Chromium at $CHROMIUM: install it (e.g. apt-get install chromium)"
}

# ensure_zopfli installs Debian's zopfli, the gzip compressor the shipped
# dsim.wasm.gz is made with, when it is missing.
ensure_zopfli() {
	command -v zopfli >/dev/null && return
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing zopfli (Debian package zopfli) to compress dsim.wasm"
		apt-get install -y -qq --no-install-recommends zopfli >/dev/null 2>&1 ||
			{ apt-get update -qq && apt-get install -y -qq --no-install-recommends zopfli >/dev/null; }
	fi
	command -v zopfli >/dev/null || die "the playground's build needs zopfli: install it (e.g. apt-get install zopfli)"
}

# build_site writes the playground to build/site: the one wasm binary (UI on
# the page, engine in a worker), the wasm_exec.js of the same Go toolchain,
# the CodeMirror bundle and the static files of site/.
SITE=build/site
WASM_BUDGET=$((2800 * 1000)) # bytes of dsim.wasm.gz, what a browser downloads: about 4.5 s at 5 Mbit/s (the nine families of the syllabus: 2,762 kB)
build_site() {
	ensure_npm
	ensure_zopfli
	say "building the playground into $SITE"
	# Built aside and swapped in, so a failed build leaves the last good site.
	local out="$SITE.new"
	rm -rf "$out"
	mkdir -p "$out"
	# The page's own package (dsim/wasm: DOM glue, run per click or frame,
	# never in the engine's loop) is built without inlining: 22 kB less to
	# download, at no cost a user can see.
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -gcflags=dsim/wasm=-l -o "$out/dsim.wasm" ./wasm
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/"
	node_modules/.bin/esbuild site/editor.js --bundle --minify --format=iife --target=es2020 \
		--log-level=warning --outfile="$out/editor.js"
	find site -maxdepth 1 -type f \( -name '*.html' -o -name '*.css' -o -name '*.js' -o -name '*.svg' -o -name '*.webmanifest' \) \
		-not -name editor.js -exec cp {} "$out/" \;
	# The service worker's cache is named after the content, so a new build
	# replaces the cached site instead of serving the old one forever; boot.js
	# hands the wasm it downloaded to that same cache.
	local version
	version=$(cat "$out"/*.js "$out"/*.html "$out"/*.css "$out/dsim.wasm" | sha256sum | cut -c1-16)
	sed -i "s/__DSIM_VERSION__/$version/" "$out/sw.js" "$out/boot.js"
	# Precompressed twins of the two big files, which `dsim serve` (or a
	# static host that honours X.gz files) sends to browsers accepting gzip;
	# -n leaves out the name and time, so the same file gives the same bytes.
	# zopfli writes gzip that any browser reads, 4% smaller than gzip -9's
	# for dsim.wasm (100 kB of the first visit), in some 15 s of the build.
	gzip -9 -n -k "$out/editor.js"
	zopfli --i1 "$out/dsim.wasm"
	local raw gz
	raw=$(wc -c <"$out/dsim.wasm")
	gz=$(wc -c <"$out/dsim.wasm.gz")
	# The loading progress counts decoded bytes: Content-Length is the
	# compressed size when the wasm comes gzipped.
	sed -i "s/__DSIM_WASM_BYTES__/$raw/" "$out/boot.js"
	say "dsim.wasm: $((raw / 1000)) kB, $((gz / 1000)) kB gzipped (budget $((WASM_BUDGET / 1000)) kB)"
	[ "$gz" -le "$WASM_BUDGET" ] || die "dsim.wasm is $gz bytes gzipped, over the budget of $WASM_BUDGET"
	rm -rf "$SITE"
	mv "$out" "$SITE"
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
	say "go vet ./... (and ./wasm for js/wasm)"
	go vet ./...
	GOOS=js GOARCH=wasm go vet ./wasm/...
}

step_unit() {
	say "go test ./..."
	go test ./...
}

# The same packages built for js/wasm and run under Node: core must behave
# there exactly as natively, and ./scripts compares every scenario's JSONL
# trace hash with the hashes committed from a native run.
# ./wasm tests the playground's engine and UI code the same way, ./internal/...
# the js/wasm memory reservation.
WASM_PACKAGES=(./core/... ./internal/... ./scripts ./wasm/...)

step_wasm() {
	need_wasm
	say "GOOS=js GOARCH=wasm go test ${WASM_PACKAGES[*]} (under Node $(node --version))"
	PATH="$WASM_DIR:$PATH" GOOS=js GOARCH=wasm go test "${WASM_PACKAGES[@]}"
}

# The playground in headless Chromium (site/tests/*.test.mjs, node --test
# with playwright-core), and the engine of the built dsim.wasm against the
# native CLI. Screenshots and failure pages go to build/test-artifacts/.
step_browser() {
	build_cli
	build_site
	ensure_chromium
	say "browser tests: node --test site/tests/ (Chromium $("$CHROMIUM" --version 2>/dev/null | awk '{print $2}'))"
	mkdir -p build/test-artifacts
	CHROMIUM="$CHROMIUM" node --test --test-reporter=spec site/tests/
}

# The native go test ./... runs last, so its summary closes the output (CI
# reads the closing lines).
TEST_STEPS=(step_gofmt step_vet step_wasm step_browser step_unit)

cmd_test() {
	need_go
	for step in "${TEST_STEPS[@]}"; do
		"$step"
	done
	say "all test steps passed"
}

cmd_build() {
	need_go
	build_cli
	build_site
	say "build/dsim run $EXAMPLE"
	build/dsim run "$EXAMPLE"
	say "that was the trace of $EXAMPLE; try build/dsim check scripts/examples/*/*.lua, or build/dsim list"
}

cmd_serve() {
	cmd_build
	say "serving the playground on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C stops)"
	exec build/dsim serve --dir "$SITE" --port "${PORT:-8080}"
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
	say "the vector clock benchmark under Node (n = 1000, 10^6 messages)"
	PATH="$WASM_DIR:$PATH" GOOS=js GOARCH=wasm go test -run '^$' -bench VectorMillion -benchmem ./core/algo/clock/vector
}

case "${1:-}" in
"" | serve) cmd_serve ;;
build) cmd_build ;;
test) cmd_test ;;
bench) cmd_bench ;;
-h | --help | help) sed -n '2,10s/^# \{0,1\}//p' "$0" ;;
*)
	sed -n '2,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
