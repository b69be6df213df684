package ingest

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the reader child is put in a job object as soon as it has
// started:
//   - JOB_OBJECT_LIMIT_PROCESS_MEMORY caps its committed memory at the
//     reader's MaxRSS: past it, allocations fail and the Go runtime dies with
//     "out of memory", which ReadIsolated reports as too large;
//   - JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE ends the child, and anything it
//     started (tesseract for OCR), when the read is over or was stopped
//     (time limit, cancellation), since TerminateProcess ends one process only.
//
// watchRSS polls the child's working set (K32GetProcessMemoryInfo) as well,
// the same check as on Linux; it is what enforces the cap where job limits
// are not (Wine, which the tests here run under). The child runs a few
// milliseconds before it is assigned to the job (os/exec cannot start a
// process suspended and resume it); in that time it is still reading its
// request, far from any file data.

// capProcess assigns p to a new job object with the memory cap and returns
// the function that closes the job (ending whatever is still in it).
func capProcess(p *os.Process, maxRSS int64) (release func()) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return func() {}
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
	if maxRSS > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		info.ProcessMemoryLimit = uintptr(maxRSS)
	}
	windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid)); err == nil {
		windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	return func() { windows.CloseHandle(job) }
}

// processMemoryCounters is PROCESS_MEMORY_COUNTERS (psapi.h).
type processMemoryCounters struct {
	Cb                         uint32
	PageFaultCount             uint32
	PeakWorkingSetSize         uintptr
	WorkingSetSize             uintptr
	QuotaPeakPagedPoolUsage    uintptr
	QuotaPagedPoolUsage        uintptr
	QuotaPeakNonPagedPoolUsage uintptr
	QuotaNonPagedPoolUsage     uintptr
	PagefileUsage              uintptr
	PeakPagefileUsage          uintptr
}

var procGetProcessMemoryInfo = windows.NewLazySystemDLL("kernel32.dll").NewProc("K32GetProcessMemoryInfo")

// residentBytes is the child's working set (its resident memory); 0 when
// it cannot be read.
func residentBytes(pid int) int64 {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.PROCESS_VM_READ, false, uint32(pid))
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	var c processMemoryCounters
	c.Cb = uint32(unsafe.Sizeof(c))
	if r, _, _ := procGetProcessMemoryInfo.Call(uintptr(h), uintptr(unsafe.Pointer(&c)), uintptr(c.Cb)); r == 0 {
		return 0
	}
	return int64(c.WorkingSetSize)
}
