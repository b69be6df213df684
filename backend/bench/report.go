package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

// WriteJSON writes the results as indented JSON.
func WriteJSON(path string, r *Results) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// WriteMarkdown writes the readable report.
func WriteMarkdown(path string, r *Results) error {
	return os.WriteFile(path, []byte(Markdown(r)), 0o644)
}

// Num formats a measured value with three significant digits (integers
// above 1000 in full).
func Num(x float64) string {
	switch {
	case x == 0:
		return "0"
	case math.Abs(x) >= 1000:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.1f", x)
	case math.Abs(x) >= 10:
		return fmt.Sprintf("%.2f", x)
	case math.Abs(x) >= 0.01:
		return fmt.Sprintf("%.3f", x)
	}
	return fmt.Sprintf("%.2g", x)
}

func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", "\\|")
}

// Markdown renders results as RESULTS.md.
func Markdown(r *Results) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Cairn benchmark results\n\n")
	if r.Quick {
		w("> **Quick subset** (`BENCH_QUICK=1`): one run, smaller corpora. Run `make bench` for the full suite.\n\n")
	}
	dirty := ""
	if r.Dirty {
		dirty = " (with uncommitted changes in tracked files)"
	}
	w("Measured %s at commit `%s`%s with `%s`, in %.0f s.\n\n", r.Date.Format("2006-01-02 15:04 UTC"), r.Commit, dirty, r.Command, r.Elapsed)
	m := r.Machine
	w("**Machine:** %s, %d cores, %.1f GiB RAM, %s (kernel %s), %s %s.\n\n", m.CPU, m.Cores, float64(m.RAMBytes)/(1<<30), m.OS, m.Kernel, m.Go, m.Arch)
	l := r.Load
	switch {
	case !l.Measured:
		w("**Machine load:** not measured (no /proc).\n\n")
	case l.Idle:
		w("**Machine load:** idle — other processes used %.2f cores on average during the run (the suite %.2f); load average %s at the start, %s at the end.\n\n", l.OtherCores, l.OwnCores, l.LoadAvgStart, l.LoadAvgEnd)
	default:
		w("**Machine load:** NOT idle — other processes used %.2f of %d cores on average during the run (the suite %.2f); load average %s at the start, %s at the end. Timings are noisy: compare ratios to references measured in the same run rather than absolute numbers.\n\n", l.OtherCores, m.Cores, l.OwnCores, l.LoadAvgStart, l.LoadAvgEnd)
	}
	w("Reproduce: `make bench` (the full suite; it builds and caches its scale corpora under `$CAIRN_CACHE_DIR/bench`, default `~/.cache/cairn/bench`) or `BENCH_QUICK=1 make bench` (one run, 1k and 10k chunks). Inputs: `../shared/docs/real` (import, indexing), `../shared/eval` (scale corpora and questions), `assets/sample` (LLM budget).\n\n")
	w("Each figure is repeated over %d run(s) and given as median (min–max). A reference, where one exists, is measured in the same run on the same input; ratio = median / reference median. Every figure names the command that reproduces it (from the repository root; `-only NAME` runs one measurement).\n\n", r.Runs)
	if len(r.Failures) > 0 {
		w("## Failures\n\n")
		for _, f := range r.Failures {
			w("- %s\n", cell(f))
		}
		w("\n")
	}
	var groups []string
	byGroup := map[string][]Figure{}
	for _, f := range r.Figures {
		if _, ok := byGroup[f.Group]; !ok {
			groups = append(groups, f.Group)
		}
		byGroup[f.Group] = append(byGroup[f.Group], f)
	}
	sortGroups(groups)
	for _, g := range groups {
		w("## %s\n\n", g)
		w("| figure | median | min–max | unit | reference (median) | ratio | target | command |\n|---|---|---|---|---|---|---|---|\n")
		for _, f := range byGroup[g] {
			ref, ratio := "", ""
			if f.Reference != nil {
				ref = fmt.Sprintf("%s: %s", f.Reference.Name, Num(f.Reference.Median))
				if f.Reference.Command != "" && !strings.HasPrefix(f.Reference.Command, "(") {
					ref += fmt.Sprintf(" (`%s`)", f.Reference.Command)
				}
				if f.Ratio != 0 {
					ratio = fmt.Sprintf("%.2f", f.Ratio)
				}
			}
			w("| %s | **%s** | %s–%s | %s | %s | %s | %s | `%s` |\n", cell(f.Name), Num(f.Median), Num(f.Min), Num(f.Max), f.Unit, cell(ref), ratio, cell(f.Target), f.Command)
		}
		w("\n")
		for _, f := range byGroup[g] {
			if f.Note != "" {
				w("- %s: %s\n", f.ID, f.Note)
			}
		}
	}
	if len(r.Notes) > 0 {
		w("## Notes\n\n")
		for _, n := range r.Notes {
			w("- %s\n", n)
		}
		w("\n")
	}
	return b.String()
}

// sortGroups orders sections by their leading number ("1. Import" first),
// keeping the order of appearance otherwise.
func sortGroups(gs []string) {
	key := func(g string) string {
		n, _, _ := strings.Cut(g, ".")
		return n
	}
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && key(gs[j]) < key(gs[j-1]); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}
