package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// MCPConfig is what an MCP client (a desktop assistant, a coding agent)
// needs to start Cairn's MCP server on the open project: this binary with
// `mcp --project DIR`, and the Ollama choice the app uses. Snippet is the
// JSON to paste into the client's configuration (the "mcpServers" object
// most clients read).
type MCPConfig struct {
	Name    string   `json:"name"`    // the server's key in the snippet
	Command string   `json:"command"` // absolute path of this Cairn binary
	Args    []string `json:"args"`
	Project string   `json:"project"`
	Snippet string   `json:"snippet"`
}

// executable is the running binary (tests replace it).
var executable = func() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p, nil
}

// MCPConfig returns the MCP client configuration for the open project.
func (a *App) MCPConfig() (MCPConfig, error) {
	defer a.enter()()
	bin, err := executable()
	if err != nil {
		return MCPConfig{}, fmt.Errorf("cannot find Cairn's own executable: %w", err)
	}
	dir := a.cur().Dir()
	args := []string{"mcp", "--project", dir}
	a.llm.mu.Lock()
	host, offline := a.llm.host, a.llm.offline
	a.llm.mu.Unlock()
	if offline {
		args = append(args, "--offline")
	} else if host != "" {
		args = append(args, "--ollama", host)
	}
	c := MCPConfig{Name: mcpName(filepath.Base(dir)), Command: bin, Args: args, Project: dir}
	type server struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": map[string]server{c.Name: {c.Command, c.Args}}}, "", "  ")
	if err != nil {
		return MCPConfig{}, err
	}
	c.Snippet = string(b)
	return c, nil
}

// mcpName is "cairn-" and the project's name in lower-case letters, digits
// and hyphens (the characters every client accepts in a server's key).
func mcpName(project string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(project) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		return "cairn"
	}
	return "cairn-" + s
}
