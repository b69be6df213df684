package app

import (
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"time"
)

// Startup tracing (CAIRN_TRACE_STARTUP=1): milestones of a desktop start,
// in milliseconds since the process started, on stderr. The cold-start
// bench (frontend/e2e/cold-start.sh) uses them to say where the time goes.
var (
	processStart = time.Now()
	traceStartup = os.Getenv("CAIRN_TRACE_STARTUP") == "1"
	traceOnce    sync.Map
)

// startupMark prints a milestone (each name once) when tracing is on.
func startupMark(name string) {
	if !traceStartup {
		return
	}
	if _, seen := traceOnce.LoadOrStore(name, true); seen {
		return
	}
	fmt.Fprintf(os.Stderr, "cairn startup: %s +%d ms\n", name, time.Since(processStart).Milliseconds())
}

// tracePage prints the page's own milestones (ms since its navigation
// started), sent with uiReadyEvent, placed on the process's clock by taking
// the event's arrival as the page's "library loaded".
func tracePage(data any) {
	if !traceStartup {
		return
	}
	m, ok := data.(map[string]any)
	if !ok {
		return
	}
	loaded, _ := m["library loaded"].(float64)
	navStart := float64(time.Since(processStart).Milliseconds()) - loaded
	type mark struct {
		name string
		ms   float64
	}
	var marks []mark
	for k, v := range m {
		if f, ok := v.(float64); ok {
			marks = append(marks, mark{k, f})
		}
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i].ms < marks[j].ms })
	fmt.Fprintf(os.Stderr, "cairn startup: page navigation start ~ +%d ms\n", int64(math.Round(navStart)))
	for _, k := range marks {
		fmt.Fprintf(os.Stderr, "cairn startup: page %s +%d ms (%d ms after navigation start)\n", k.name, int64(math.Round(navStart+k.ms)), int64(k.ms))
	}
}
