package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The testdata reports are real outputs of the two scripts on this
// project's 2-core machine (cold-start.sh with 1 launch each,
// bench-graph.mjs with --runs 2 --seconds 2).

func figureByID(t *testing.T, figs []Figure, id string) Figure {
	t.Helper()
	for _, f := range figs {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no figure %s among %d", id, len(figs))
	return Figure{}
}

func TestColdStartFigures(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "cold-start.json"))
	if err != nil {
		t.Fatal(err)
	}
	figs, err := coldStartFigures(raw, "cmd", "script")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		finish(&f, "")
		if f.Group != appGroup || f.Command != "cmd" || f.Unit != "ms" {
			t.Errorf("%s: group %q command %q unit %q", f.ID, f.Group, f.Command, f.Unit)
		}
	}
	cases := []struct {
		id   string
		want float64
	}{
		{"app.cold_start.fresh.interactive_ms", 1625},
		{"app.cold_start.fresh.window_ms", 707},
		{"app.cold_start.fresh.to_page_ms", 857},
		{"app.cold_start.fresh.page_ms", 1518 - 857},
		{"app.cold_start.existing.interactive_ms", 2860},
		{"app.cold_start.existing.page_ms", 2548 - 1318},
	}
	for _, c := range cases {
		f := figureByID(t, figs, c.id)
		if len(f.Runs) != 1 || f.Runs[0] != c.want {
			t.Errorf("%s = %v, want [%v]", c.id, f.Runs, c.want)
		}
	}
	if f := figureByID(t, figs, "app.cold_start.fresh.interactive_ms"); f.Target == "" {
		t.Error("the interactive figure has no target")
	}
}

func TestColdStartFiguresErrors(t *testing.T) {
	for name, raw := range map[string]string{
		"not JSON":    "cold-start: no DISPLAY",
		"no launches": `{"runs": 3, "fresh": [], "existing": [], "failures": []}`,
		"failures":    `{"runs": 1, "fresh": [{"window_ms": 10, "interactive_ms": 20, "trace": {}}], "existing": [], "failures": ["existing launch 1: not interactive within 60 s"]}`,
	} {
		t.Run(name, func(t *testing.T) {
			figs, err := coldStartFigures([]byte(raw), "cmd", "script")
			if err == nil {
				t.Fatalf("no error (%d figures)", len(figs))
			}
			if name == "failures" && (len(figs) == 0 || !strings.Contains(err.Error(), "existing launch 1")) {
				t.Errorf("figures %d, err %v: want the fresh figures and the failure", len(figs), err)
			}
		})
	}
}

func TestColdStartPhaseNeedsBothMarks(t *testing.T) {
	raw := `{"runs": 2, "fresh": [
		{"window_ms": 300, "interactive_ms": 900, "trace": {"page navigation start ~": 400, "page library loaded": 850}},
		{"window_ms": 320, "interactive_ms": 950, "trace": {"page navigation start ~": 420}}], "existing": [], "failures": []}`
	figs, err := coldStartFigures([]byte(raw), "cmd", "script")
	if err != nil {
		t.Fatal(err)
	}
	if f := figureByID(t, figs, "app.cold_start.fresh.page_ms"); len(f.Runs) != 1 || f.Runs[0] != 450 {
		t.Errorf("page phase = %v, want [450] (the launch without a library mark left out)", f.Runs)
	}
	if f := figureByID(t, figs, "app.cold_start.fresh.interactive_ms"); len(f.Runs) != 2 {
		t.Errorf("interactive = %v, want both launches", f.Runs)
	}
}

func TestExplorerFigures(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "bench-graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	figs, err := explorerFigures(raw, "cmd", "node frontend/e2e/bench-graph.mjs")
	if err != nil {
		t.Fatal(err)
	}
	drag := figureByID(t, figs, "app.explorer.drag.render_ms_median")
	if len(drag.Runs) != 2 || drag.Runs[0] <= 0 || drag.Target == "" {
		t.Errorf("drag render median runs %v target %q", drag.Runs, drag.Target)
	}
	if !strings.Contains(drag.Name, "10000 nodes") {
		t.Errorf("name %q does not say the graph size", drag.Name)
	}
	frame := figureByID(t, figs, "app.explorer.redraw.frame_ms_median")
	if !strings.Contains(frame.Name, "software WebGL") {
		t.Errorf("whole-frame figure does not say the WebGL is software: %q", frame.Name)
	}
	if f := figureByID(t, figs, "app.explorer.refresh_ms"); len(f.Runs) == 0 {
		t.Error("no refresh runs")
	}
}

func TestExplorerFiguresErrors(t *testing.T) {
	if _, err := explorerFigures([]byte(`{"nodes": 10, "drag": [], "redraw": []}`), "c", "s"); err == nil {
		t.Error("no runs: no error")
	}
	figs, err := explorerFigures([]byte(`{"nodes": 10, "webgl": "ANGLE (NVIDIA)", "drag": [{"frames": 9, "render_ms_median": 1}], "page_errors": ["TypeError: x"]}`), "c", "s")
	if err == nil || len(figs) == 0 {
		t.Errorf("page errors: figures %d, err %v: want both", len(figs), err)
	}
	if f := figureByID(t, figs, "app.explorer.drag.frame_ms_median"); strings.Contains(f.Name, "software") {
		t.Errorf("a GPU renderer called software: %q", f.Name)
	}
}

func TestSoftwareWebGL(t *testing.T) {
	for renderer, want := range map[string]bool{
		"ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)": true,
		"llvmpipe (LLVM 15.0.6, 256 bits)":                   true,
		"ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11)": false,
		"unknown": false,
	} {
		if got := softwareWebGL(renderer); got != want {
			t.Errorf("softwareWebGL(%q) = %v", renderer, got)
		}
	}
}

// A launch the script started again (GTK could not open the display) is
// named in the interactive figure's note, not hidden.
func TestColdStartRetriesReported(t *testing.T) {
	raw := `{"runs": 1, "fresh": [{"window_ms": 300, "interactive_ms": 900, "trace": {}}], "existing": [], "failures": [],
		"retries": ["fresh launch 1: GTK could not open the display; launched again"]}`
	figs, err := coldStartFigures([]byte(raw), "cmd", "script")
	if err != nil {
		t.Fatal(err)
	}
	if f := figureByID(t, figs, "app.cold_start.fresh.interactive_ms"); !strings.Contains(f.Note, "fresh launch 1: GTK could not open the display") {
		t.Errorf("note %q does not name the retry", f.Note)
	}
}
