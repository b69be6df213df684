//go:build !windows

package ingest

import (
	"os"
	"strconv"
	"strings"
)

// capProcess has nothing to add outside Windows: watchRSS enforces the
// memory cap and the context the wall-clock limit.
func capProcess(*os.Process, int64) (release func()) { return func() {} }

// residentBytes reads VmRSS from /proc (Linux); 0 where unavailable.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
