package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
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
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if folder, ok := strings.CutSuffix(r.URL.Path, "/index.html"); ok {
			r = r.Clone(r.Context())
			r.URL.Path = folder + "/"
		}
		files.ServeHTTP(w, r)
	})
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
