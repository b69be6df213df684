//go:build unix

package store

import (
	"errors"
	"syscall"
)

// isReadOnlyFS reports a write refused because the file system is mounted
// read-only.
func isReadOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }
