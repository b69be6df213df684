//go:build !unix && !windows

package project

import (
	"os"
	"sync"
)

// Without flock, the lock serialises writers inside this process only.
var inProcess sync.Map

func tryLockFile(f *os.File) (bool, error) {
	_, busy := inProcess.LoadOrStore(f.Name(), true)
	return !busy, nil
}

func unlockFile(f *os.File) { inProcess.Delete(f.Name()) }
