package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The desktop app, as a user meets it (section "6. App"): cold start of the
// real window under Xvfb, and the graph explorer's frame time at 10k nodes
// in headless Chromium. Both are measured by scripts next to the end-to-end
// tests, which this part runs and whose JSON it turns into figures:
//
//	frontend/e2e/cold-start.sh build/bin/cairn-desktop RUNS
//	node frontend/e2e/bench-graph.mjs --runs RUNS
//
// A missing tool (Xvfb, xdotool, xprop, node, Chromium, playwright-core) or
// a missing desktop binary (`make build`) skips that figure with a note.

const (
	appGroup          = "6. App"
	coldStartScript   = "frontend/e2e/cold-start.sh"
	benchGraphScript  = "frontend/e2e/bench-graph.mjs"
	desktopBinary     = "build/bin/cairn-desktop"
	explorerNodes     = 10000
	explorerSeconds   = 4 // per motion and run (quick: 2)
	appCommandTimeout = 10 * time.Minute
)

func measureApp(ctx context.Context, env *Env) ([]Figure, error) {
	var figs []Figure
	var errs []error
	f, err := measureColdStart(ctx, env)
	figs = append(figs, f...)
	errs = append(errs, err)
	f, err = measureExplorer(ctx, env)
	figs = append(figs, f...)
	errs = append(errs, err)
	return figs, errors.Join(errs...)
}

// missingTools names the programs of tools that are not on PATH.
func missingTools(tools ...string) []string {
	var out []string
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			out = append(out, t)
		}
	}
	return out
}

// runScript runs a measuring script from the repository root and returns
// its stdout (the JSON); stderr goes to the log and, on failure, into the
// error.
func runScript(ctx context.Context, env *Env, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, appCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = env.Root
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if env.Log != nil {
		cmd.Stderr = io.MultiWriter(&errb, env.Log)
	}
	err := cmd.Run()
	if err != nil {
		tail := strings.TrimSpace(errb.String())
		if len(tail) > 600 {
			tail = "…" + tail[len(tail)-600:]
		}
		return out.Bytes(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, tail)
	}
	return out.Bytes(), nil
}

// measureColdStart: launch → window → Library loaded, fresh and existing
// home, env.Runs launches each.
func measureColdStart(ctx context.Context, env *Env) ([]Figure, error) {
	bin := filepath.Join(env.Root, desktopBinary)
	if _, err := os.Stat(bin); err != nil {
		env.Notef("app: cold start not measured: no desktop binary %s (make build; `make bench` builds it)", desktopBinary)
		return nil, nil
	}
	tools := []string{"xdotool", "xprop"}
	if os.Getenv("DISPLAY") == "" {
		tools = append(tools, "Xvfb")
	}
	if miss := missingTools(tools...); len(miss) > 0 {
		env.Notef("app: cold start not measured: %s not installed (make deps-test installs xvfb, xdotool, x11-utils)", strings.Join(miss, ", "))
		return nil, nil
	}
	if st, err := os.Stat(filepath.Join(env.Root, "frontend", "dist", "index.html")); err == nil {
		if bst, err := os.Stat(bin); err == nil && bst.ModTime().Before(st.ModTime()) {
			env.Notef("app: %s is older than frontend/dist: the cold start measures the last `make build`", desktopBinary)
		}
	}
	runs := max(env.Runs, 1)
	env.Logf("app: cold start, %d launches each on a fresh and an existing home", runs)
	out, err := runScript(ctx, env, filepath.Join(env.Root, coldStartScript), bin, fmt.Sprint(runs))
	figs, perr := coldStartFigures(out, env.Command(), fmt.Sprintf("%s %s %d", coldStartScript, desktopBinary, runs))
	if perr != nil && err == nil {
		err = perr
	}
	return figs, err
}

// coldStartReport is cold-start.sh's JSON.
type coldStartReport struct {
	Runs     int               `json:"runs"`
	Fresh    []coldStartLaunch `json:"fresh"`
	Existing []coldStartLaunch `json:"existing"`
	Failures []string          `json:"failures"`
	Retries  []string          `json:"retries"` // launches started again because GTK could not open the display
}

type coldStartLaunch struct {
	WindowMS      float64            `json:"window_ms"`
	InteractiveMS float64            `json:"interactive_ms"`
	Trace         map[string]float64 `json:"trace"`
}

// coldStartFigures turns cold-start.sh's JSON into figures. Trace phases
// are in ms since the process started (CAIRN_TRACE_STARTUP=1).
//
// command is the cairnbench command line; script, the script's own, which
// measures the same on its own.
func coldStartFigures(raw []byte, command, script string) ([]Figure, error) {
	var r coldStartReport
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("cold-start.sh printed no report: %w", err)
	}
	var figs []Figure
	retried := ""
	if len(r.Retries) > 0 {
		retried = "; launched again after GTK could not open the Xvfb display: " + strings.Join(r.Retries, "; ")
	}
	for _, c := range []struct {
		key, what string
		launches  []coldStartLaunch
	}{
		{"fresh", "fresh home (the Sample project is created; its documents import after the window is interactive)", r.Fresh},
		{"existing", "existing home (the Sample project with its documents imported and indexed)", r.Existing},
	} {
		if len(c.launches) == 0 {
			continue
		}
		pick := func(f func(coldStartLaunch) (float64, bool)) []float64 {
			var v []float64
			for _, l := range c.launches {
				if x, ok := f(l); ok {
					v = append(v, x)
				}
			}
			return v
		}
		phase := func(from, to string) func(coldStartLaunch) (float64, bool) {
			return func(l coldStartLaunch) (float64, bool) {
				a, okA := l.Trace[from]
				b, okB := l.Trace[to]
				if from == "" {
					a, okA = 0, true
				}
				return b - a, okA && okB && b >= a
			}
		}
		figs = append(figs,
			Figure{ID: "app.cold_start." + c.key + ".interactive_ms", Group: appGroup, Unit: "ms", Command: command, Target: "≤ 2000 ms",
				Name: "cold start to an interactive window under Xvfb, " + c.what + ": launch → the page retitles the window once the Library has loaded",
				Stat: Stat{Runs: pick(func(l coldStartLaunch) (float64, bool) { return l.InteractiveMS, true })},
				Note: "median over launches, the machine's other load included; the script alone: `" + script + "` (starts its own Xvfb)" + retried},
			Figure{ID: "app.cold_start." + c.key + ".window_ms", Group: appGroup, Unit: "ms", Command: command,
				Name: "  of which launch → window mapped (GTK, Wails)",
				Stat: Stat{Runs: pick(func(l coldStartLaunch) (float64, bool) { return l.WindowMS, true })}},
			Figure{ID: "app.cold_start." + c.key + ".to_page_ms", Group: appGroup, Unit: "ms", Command: command,
				Name: "  process start → page navigation starts (project open, GTK, WebKit's processes)",
				Stat: Stat{Runs: pick(phase("", "page navigation start ~"))}},
			Figure{ID: "app.cold_start." + c.key + ".page_ms", Group: appGroup, Unit: "ms", Command: command,
				Name: "  page navigation → Library loaded (bundle, first render and paint, first data call)",
				Stat: Stat{Runs: pick(phase("page navigation start ~", "page library loaded"))}},
		)
	}
	if len(r.Failures) > 0 {
		return figs, fmt.Errorf("cold start: %s", strings.Join(r.Failures, "; "))
	}
	if len(figs) == 0 {
		return nil, errors.New("cold start: no launch measured")
	}
	return figs, nil
}

// measureExplorer: the graph explorer at 10k generated nodes in headless
// Chromium.
func measureExplorer(ctx context.Context, env *Env) ([]Figure, error) {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		for _, c := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(c); err == nil {
				chromium = p
				break
			}
		}
	}
	var miss []string
	if chromium == "" {
		miss = append(miss, "chromium")
	}
	miss = append(miss, missingTools("node")...)
	if _, err := os.Stat(filepath.Join(env.Root, "frontend", "e2e", "node_modules", "playwright-core")); err != nil {
		miss = append(miss, "playwright-core (npm install in frontend/e2e)")
	}
	if _, err := os.Stat(filepath.Join(env.Root, "frontend", "dist", "index.html")); err != nil {
		miss = append(miss, "frontend/dist (make frontend)")
	}
	if len(miss) > 0 {
		env.Notef("app: explorer frame time not measured: %s missing", strings.Join(miss, ", "))
		return nil, nil
	}
	runs := max(env.Runs, 1)
	env.Logf("app: graph explorer at %d nodes, %d runs", explorerNodes, runs)
	seconds := explorerSeconds
	if env.Quick {
		seconds = 2
	}
	args := []string{benchGraphScript, "--nodes", fmt.Sprint(explorerNodes), "--seconds", fmt.Sprint(seconds), "--runs", fmt.Sprint(runs)}
	out, err := runScript(ctx, env, "node", append(args, "--chromium", chromium)...)
	figs, perr := explorerFigures(out, env.Command(), "node "+strings.Join(args, " "))
	if perr != nil && err == nil {
		err = perr
	}
	return figs, err
}

// explorerReport is bench-graph.mjs's JSON.
type explorerReport struct {
	Nodes      int           `json:"nodes"`
	Edges      int           `json:"edges"`
	Chromium   string        `json:"chromium"`
	WebGL      string        `json:"webgl"`
	Viewport   string        `json:"viewport"`
	Drag       []explorerRun `json:"drag"`
	Redraw     []explorerRun `json:"redraw"`
	RefreshMS  []float64     `json:"refresh_ms"`
	PageErrors []string      `json:"page_errors"`
}

type explorerRun struct {
	Frames         int     `json:"frames"`
	RenderMSMedian float64 `json:"render_ms_median"`
	RenderMSP95    float64 `json:"render_ms_p95"`
	FrameMSMedian  float64 `json:"frame_ms_median"`
	FrameMSP95     float64 `json:"frame_ms_p95"`
}

// softwareWebGL tells whether a WebGL renderer string names a CPU rasteriser.
func softwareWebGL(renderer string) bool {
	r := strings.ToLower(renderer)
	return strings.Contains(r, "swiftshader") || strings.Contains(r, "llvmpipe") || strings.Contains(r, "software")
}

// explorerFigures turns bench-graph.mjs's JSON into figures: per motion,
// sigma's render on the main thread (median and p95 of each run) and the
// whole frame (median of each run).
// command is the cairnbench command line; script, the script's own.
func explorerFigures(raw []byte, command, script string) ([]Figure, error) {
	var r explorerReport
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("bench-graph.mjs printed no report: %w", err)
	}
	if len(r.Drag) == 0 && len(r.Redraw) == 0 {
		return nil, errors.New("explorer: no run measured")
	}
	gl := r.WebGL
	if softwareWebGL(gl) {
		gl = "software WebGL: " + gl + " — no GPU browser on this machine, so the whole frame measures a CPU rasteriser"
	}
	where := fmt.Sprintf("%d nodes, %d edges, headless Chromium %s, %s", r.Nodes, r.Edges, r.Chromium, r.Viewport)
	var figs []Figure
	for _, m := range []struct {
		key, what string
		runs      []explorerRun
	}{
		{"drag", "while the user drags the view (edges and labels hidden while the camera moves)", r.Drag},
		{"redraw", "full redraw each frame (all nodes, edges and labels: the camera moved without the mouse)", r.Redraw},
	} {
		if len(m.runs) == 0 {
			continue
		}
		var med, p95, frame []float64
		for _, x := range m.runs {
			med = append(med, x.RenderMSMedian)
			p95 = append(p95, x.RenderMSP95)
			frame = append(frame, x.FrameMSMedian)
		}
		figs = append(figs,
			Figure{ID: "app.explorer." + m.key + ".render_ms_median", Group: appGroup, Unit: "ms", Command: command, Target: "≤ 33 ms a frame (≥ 30 fps)",
				Name: "graph explorer, " + where + ", " + m.what + ": sigma's render per frame on the main thread, median",
				Stat: Stat{Runs: med}, Note: "the script alone: `" + script + "`"},
			Figure{ID: "app.explorer." + m.key + ".render_ms_p95", Group: appGroup, Unit: "ms", Command: command,
				Name: "  main thread per frame, p95", Stat: Stat{Runs: p95}},
			Figure{ID: "app.explorer." + m.key + ".frame_ms_median", Group: appGroup, Unit: "ms", Command: command,
				Name: "  whole frame (between animation frames), median, " + gl, Stat: Stat{Runs: frame}},
		)
	}
	if len(r.RefreshMS) > 0 {
		figs = append(figs, Figure{ID: "app.explorer.refresh_ms", Group: appGroup, Unit: "ms", Command: command,
			Name: "graph explorer, same graph: a full refresh on the main thread (reducers over every node and edge, buffers rebuilt, drawn: a filter change or a layout step)",
			Stat: Stat{Runs: r.RefreshMS}})
	}
	if len(r.PageErrors) > 0 {
		return figs, fmt.Errorf("explorer: errors in the page: %s", strings.Join(r.PageErrors, " | "))
	}
	return figs, nil
}
