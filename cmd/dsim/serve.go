package main

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// siteDir finds the built playground: the --dir flag, else build/site under
// the working directory (the repository root), else site/ beside the
// executable (build/dsim beside build/site).
func siteDir(flagDir string) (string, error) {
	if flagDir != "" {
		return flagDir, checkSite(flagDir)
	}
	tried := []string{filepath.Join("build", "site")}
	if exe, err := os.Executable(); err == nil {
		tried = append(tried, filepath.Join(filepath.Dir(exe), "site"))
	}
	for _, d := range tried {
		if checkSite(d) == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("the playground is not built (no index.html and dsim.wasm in %s): run ./build.sh in the repository, or give --dir", tried[0])
}

func checkSite(dir string) error {
	for _, f := range []string{"index.html", "dsim.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("%s is not a built playground: %w (run ./build.sh)", dir, err)
		}
	}
	return nil
}

// siteHandler serves the static files, always revalidated, so a rebuilt
// playground is what the next reload gets. A folder's index.html is served
// under both of its names: http.FileServer would answer .../index.html with
// a redirect to ./, and a service worker that cached that redirect could not
// answer a navigation with it.
//
// A file with a precompressed twin X.gz beside it (build.sh writes
// dsim.wasm.gz) is answered with the twin, as Content-Encoding: gzip, to a
// client that accepts gzip: a quarter of the bytes on a first visit.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if folder, ok := strings.CutSuffix(r.URL.Path, "/index.html"); ok {
			r = r.Clone(r.Context())
			r.URL.Path = folder + "/"
		}
		if gz := precompressed(dir, r.URL.Path); gz != "" {
			// Either answer depends on the request's Accept-Encoding:
			// a shared cache must not give one client the other's.
			w.Header().Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Get("Accept-Encoding")) {
				// The type of the file, not of its twin: streaming
				// compilation of the wasm needs application/wasm.
				if ctype := mime.TypeByExtension(path.Ext(r.URL.Path)); ctype != "" {
					w.Header().Set("Content-Type", ctype)
				}
				w.Header().Set("Content-Encoding", "gzip")
				r = r.Clone(r.Context())
				r.URL.Path = gz
			}
		}
		files.ServeHTTP(w, r)
	})
}

// precompressed returns the URL path of the gzip twin of the file at
// urlPath, or "" when there is none (or urlPath names a folder).
func precompressed(dir, urlPath string) string {
	if strings.HasSuffix(urlPath, "/") {
		return ""
	}
	gz := path.Clean("/"+urlPath) + ".gz"
	if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(gz))); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return gz
}

// acceptsGzip reads an Accept-Encoding header (RFC 9110, 12.5.3): gzip (or
// x-gzip) with a weight above zero, or else * with one.
func acceptsGzip(header string) bool {
	gzip, star := -1.0, -1.0 // -1: not named
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gzip = q
		case "*":
			star = q
		}
	}
	if gzip >= 0 {
		return gzip > 0
	}
	return star > 0
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", "serve [--port N] [--dir DIR]", stderr)
	port := fs.Int("port", 8080, "TCP `port` on 127.0.0.1 (0: any free port)")
	dirFlag := fs.String("dir", "", "the built playground `dir`ectory (default: build/site, or site/ beside the dsim binary)")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		return usageError(fs, stderr, "takes no positional arguments")
	}
	if *port < 0 || *port > 65535 {
		return usageError(fs, stderr, "--port %d is not a TCP port", *port)
	}
	dir, err := siteDir(*dirFlag)
	if err != nil {
		fmt.Fprintf(stderr, "dsim serve: %v\n", err)
		return exitError
	}
	// Loopback only: the playground is for the person at this machine.
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(stderr, "dsim serve: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "dsim playground: http://%s/ (serving %s; Ctrl+C to stop)\n", ln.Addr(), dir)
	if err := http.Serve(ln, siteHandler(dir)); err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintf(stderr, "dsim serve: %v\n", err)
		return exitError
	}
	return exitOK
}
