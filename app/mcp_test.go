package app

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMCPName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Sample", "cairn-sample"},
		{"Tax 2026 (final)", "cairn-tax-2026-final"},
		{"税务", "cairn"},
		{"  --  ", "cairn"},
		{"a.b_c", "cairn-a-b-c"},
	} {
		if got := mcpName(tc.in); got != tc.want {
			t.Errorf("mcpName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMCPConfig: the snippet starts this binary on the open project with
// the app's Ollama choice, in the mcpServers form clients read.
func TestMCPConfig(t *testing.T) {
	old := executable
	executable = func() (string, error) { return "/opt/Cairn/cairn", nil }
	t.Cleanup(func() { executable = old })
	dir := t.TempDir() + "/My Project"
	for _, tc := range []struct {
		name    string
		host    string
		offline bool
		want    []string
	}{
		{"default Ollama", "", false, []string{"mcp", "--project", dir}},
		{"chosen host", "http://gpu-box:11434", false, []string{"mcp", "--project", dir, "--ollama", "http://gpu-box:11434"}},
		{"offline", "http://gpu-box:11434", true, []string{"mcp", "--project", dir, "--offline"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newApp(&fakeBackend{dir: dir})
			a.llm.host, a.llm.offline = tc.host, tc.offline
			c, err := a.MCPConfig()
			if err != nil {
				t.Fatal(err)
			}
			if c.Command != "/opt/Cairn/cairn" || !reflect.DeepEqual(c.Args, tc.want) || c.Name != "cairn-my-project" || c.Project != dir {
				t.Fatalf("%+v", c)
			}
			var snip struct {
				Servers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(c.Snippet), &snip); err != nil {
				t.Fatal(err)
			}
			s, ok := snip.Servers["cairn-my-project"]
			if !ok || s.Command != c.Command || !reflect.DeepEqual(s.Args, tc.want) {
				t.Errorf("snippet %s", c.Snippet)
			}
		})
	}
}
