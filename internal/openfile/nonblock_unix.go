//go:build unix

package openfile

import "syscall"

const nonblock = syscall.O_NONBLOCK
