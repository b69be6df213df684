package project

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Windows writer locks: LockFileEx on one byte far past the end of the lock
// file. Windows byte-range locks are mandatory, so locking the bytes that
// hold the holder's pid would stop a waiting process from reading who holds
// it (lockHolder); a byte at 4 GiB holds no data. Like flock, the lock
// belongs to the open handle: a second handle in the same process waits
// too, and the kernel releases it when the holder dies.
const lockOffsetHigh = 1 // offset 2^32

func tryLockFile(f *os.File) (bool, error) {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

func unlockFile(f *os.File) {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
