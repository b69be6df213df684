//go:build unix

package project

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK (so opening a FIFO
// returns at once) and O_NOCTTY (a terminal device never becomes ours).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
