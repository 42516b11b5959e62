-- An error of a megabyte, with line breaks: one line of a thousand bytes.
-- error: ^long_error\.lua:3: (x\\n)+x?\\?\.\.\. \(3145728 bytes\)$
error(("x\n"):rep(2^20), 0)
