package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"dsim/core/script"
)

// maxScript is the largest scenario the CLI reads: core/script's maxSource,
// which script.Run checks again. Reading stops one byte past it, so
// `dsim run /dev/zero` or a huge file costs a megabyte, not the whole file.
const maxScript = 1 << 20

// readScript reads one scenario file, at most maxScript+1 bytes of it. The
// error names the file: a plain error when the file cannot be read (missing,
// unreadable, a directory, a FIFO or a socket), a *script.Error at line 1,
// like core/script's own size check, when the file is too big.
func readScript(name string) ([]byte, error) {
	// Look before opening: opening a FIFO waits for a writer, maybe forever.
	info, err := os.Stat(name)
	if err != nil {
		return nil, fileError(name, err)
	}
	switch mode := info.Mode(); {
	case mode.IsDir():
		return nil, fmt.Errorf("%s: is a directory, not a scenario file", name)
	case mode&fs.ModeNamedPipe != 0:
		return nil, fmt.Errorf("%s: is a FIFO (named pipe), not a scenario file", name)
	case mode&fs.ModeSocket != 0:
		return nil, fmt.Errorf("%s: is a socket, not a scenario file", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fileError(name, err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxScript+1))
	if err != nil {
		return nil, fileError(name, err)
	}
	if len(src) > maxScript {
		return nil, &script.Error{File: name, Line: 1, Msg: fmt.Sprintf("the script is more than the %d bytes allowed", maxScript)}
	}
	return src, nil
}

// fileError says why name cannot be read in one line that starts with the
// file name: "x.lua: no such file or directory".
func fileError(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %v", name, err)
}
