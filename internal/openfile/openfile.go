// Package openfile opens files named by users so that the open itself
// cannot block: a FIFO with no writer, or a device that waits for a
// carrier, would hold open(2) forever when opened for reading as usual.
package openfile

import (
	"fmt"
	"os"
)

// Open opens path for reading without waiting in open(2) (O_NONBLOCK on
// systems that have it), and returns the file and its information (from
// the open file, so that it describes what was opened). A FIFO opened this
// way reads as the data its writer sends, or as empty when it has none.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// OpenRegular is Open for a file that must be a regular file: anything
// else (a FIFO, a device, a directory) is closed and refused with an error
// naming path.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file but %s", path, kind(fi.Mode()))
	}
	return f, fi, nil
}

// kind names the type of a file that is not regular.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
