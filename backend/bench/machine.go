package bench

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine is what the numbers were measured on.
type Machine struct {
	CPU      string `json:"cpu"`
	Cores    int    `json:"cores"`
	RAMBytes int64  `json:"ram_bytes"`
	OS       string `json:"os"`
	Kernel   string `json:"kernel"`
	Go       string `json:"go"`
	Arch     string `json:"arch"`
}

// ReadMachine reads the machine facts from /proc and the Go runtime
// (fields it cannot read stay empty).
func ReadMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version(), Arch: runtime.GOOS + "/" + runtime.GOARCH}
	eachLine("/proc/cpuinfo", func(k, v string) bool {
		if k == "model name" {
			m.CPU = v
			return false
		}
		return true
	})
	eachLine("/proc/meminfo", func(k, v string) bool {
		if k == "MemTotal" {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
			m.RAMBytes = kb << 10
			return false
		}
		return true
	})
	eachLine("/etc/os-release", func(k, v string) bool {
		if strings.HasPrefix(k, "PRETTY_NAME=") {
			m.OS = strings.Trim(strings.TrimPrefix(k, "PRETTY_NAME="), `"`)
			return false
		}
		return true
	})
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if m.OS == "" {
		m.OS = runtime.GOOS
	}
	return m
}

// eachLine calls f with "key: value" pairs (or the whole line as key when
// it has no colon) until f returns false.
func eachLine(path string, f func(k, v string) bool) {
	fh, err := os.Open(path)
	if err != nil {
		return
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			k, v = sc.Text(), ""
		}
		if !f(strings.TrimSpace(k), strings.TrimSpace(v)) {
			return
		}
	}
}

// Load says how busy the machine was with other work during the run.
type Load struct {
	LoadAvgStart string  `json:"loadavg_start"`
	LoadAvgEnd   string  `json:"loadavg_end"`
	OwnCores     float64 `json:"own_cores"`   // mean cores used by the suite (and its children)
	OtherCores   float64 `json:"other_cores"` // mean cores used by everything else
	Idle         bool    `json:"idle"`        // other work used under 0.2 cores on average
	Measured     bool    `json:"measured"`    // /proc was readable
}

type cpuSample struct {
	at        time.Time
	busy, own float64 // clock ticks
	loadavg   string
	ok        bool
}

// clockTicks is USER_HZ, 100 on every Linux Go supports.
const clockTicks = 100

func readCPU() cpuSample {
	s := cpuSample{at: time.Now()}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			s.loadavg = strings.Join(f[:3], " ")
		}
	}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return s
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return s
	}
	var total, idle float64
	for i, x := range f[1:] {
		v, _ := strconv.ParseFloat(x, 64)
		if i >= 8 { // guest time is already counted in user
			break
		}
		total += v
		if i == 3 || i == 4 { // idle, iowait
			idle += v
		}
	}
	s.busy = total - idle
	b, err = os.ReadFile("/proc/self/stat")
	if err != nil {
		return s
	}
	// Fields after the command name (which may hold spaces) start at state.
	st := string(b)
	if i := strings.LastIndexByte(st, ')'); i >= 0 {
		f = strings.Fields(st[i+1:])
		if len(f) > 14 {
			for _, x := range f[11:15] { // utime stime cutime cstime
				v, _ := strconv.ParseFloat(x, 64)
				s.own += v
			}
			s.ok = true
		}
	}
	return s
}

// loadSince compares the machine's CPU use with the suite's own since s0.
func loadSince(s0 cpuSample) Load {
	s1 := readCPU()
	l := Load{LoadAvgStart: s0.loadavg, LoadAvgEnd: s1.loadavg, Measured: s0.ok && s1.ok}
	secs := s1.at.Sub(s0.at).Seconds()
	if !l.Measured || secs <= 0 {
		return l
	}
	l.OwnCores = (s1.own - s0.own) / clockTicks / secs
	l.OtherCores = max(0, (s1.busy-s0.busy)-(s1.own-s0.own)) / clockTicks / secs
	l.Idle = l.OtherCores < 0.2
	return l
}

// gitCommit returns the checked-out commit and whether the tree has changes.
func gitCommit(root string) (string, bool) {
	cmd := exec.Command("git", "rev-parse", "--short=12", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "unknown", false
	}
	cmd = exec.Command("git", "status", "--porcelain", "--untracked-files=no")
	cmd.Dir = root
	st, _ := cmd.Output()
	return strings.TrimSpace(string(out)), len(strings.TrimSpace(string(st))) > 0
}
