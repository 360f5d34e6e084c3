//go:build !unix

package openfile

// nonblock is 0 where opening a file cannot wait for a writer.
const nonblock = 0
