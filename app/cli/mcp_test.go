package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/testshared"
)

// TestMCPCommand speaks MCP to `cairn mcp` through its stdin and stdout:
// stdout carries only JSON-RPC messages, the project must exist, and the
// command ends when the client closes stdin.
func TestMCPCommand(t *testing.T) {
	doc, _ := filepath.Abs("../../../shared/docs/real/en-report-dmca-summary.pdf")
	if _, err := os.Stat(doc); err != nil {
		testshared.Missing(t, "../shared/docs not present")
	}
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errs := run(t, "", "mcp", "--project", proj); code == 0 || !strings.Contains(errs, "is not a Cairn project") {
		t.Fatalf("mcp on a missing project: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(proj); !os.IsNotExist(err) {
		t.Fatalf("mcp created the missing project folder: %v", err)
	}
	if code, _, errs := run(t, "", "import", "--offline", "--no-index", "--project", proj, doc); code != 0 {
		t.Fatalf("import: %s", errs)
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	env := &Env{Stdin: inR, Stdout: outW, Stderr: &errb}
	done := make(chan int)
	go func() {
		code := env.Run(context.Background(), []string{"mcp", "--offline", "--project", proj})
		outW.Close()
		done <- code
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<24)
	send := func(msg string) { io.WriteString(inW, msg+"\n") }
	recv := func(id int) map[string]any {
		t.Helper()
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("stdout carries a non-JSON-RPC line: %q", lines.Text())
			}
			if v, ok := m["id"].(float64); ok && int(v) == id {
				return m
			}
		}
		t.Fatalf("no reply %d: %v; stderr: %s", id, lines.Err(), errb.String())
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if r := recv(1); r["result"].(map[string]any)["serverInfo"].(map[string]any)["name"] != "cairn" {
		t.Fatalf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"anti-circumvention","k":2}}}`)
	res := recv(2)["result"].(map[string]any)
	if res["isError"] == true || len(res["structuredContent"].(map[string]any)["passages"].([]any)) != 2 {
		t.Fatalf("search: %v", res)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after the client closed stdin; stderr: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cairn mcp did not end when stdin closed")
	}
	if !strings.Contains(errb.String(), "mode: offline") || !strings.Contains(errb.String(), "(read-only)") {
		t.Errorf("stderr: %q", errb.String())
	}
}
