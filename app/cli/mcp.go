package cli

import (
	"context"
	"fmt"
	"io"

	"cairn/backend/mcpserver"
	"cairn/backend/project"
)

// cmdMCP serves one project to a Model Context Protocol client on stdin and
// stdout (stderr says the mode). The language model is chosen after the
// server is ready, so a client's start-up does not wait for Ollama.
func cmdMCP(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("mcp")
	dir := fs.String("project", "", "project folder (must exist unless --allow-import)")
	allowImport := fs.Bool("allow-import", false, "offer the import tool (files inside the project folder only)")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) > 0 || *dir == "" {
		fmt.Fprintln(env.Stderr, "usage: cairn mcp --project DIR [--allow-import] [--offline] [--ollama URL]")
		return 2
	}
	if !*allowImport && !project.IsProject(*dir) {
		return env.fail(fmt.Errorf("%s is not a Cairn project (no %s): import documents first, or pass --allow-import", *dir, project.DBName))
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	ready := make(chan struct{})
	srv := mcpserver.New(p, mcpserver.Options{AllowImport: *allowImport, ModelReady: ready})
	go func() {
		defer close(ready)
		env.connect(ctx, p)
	}()
	access := "read-only"
	if *allowImport {
		access = "import allowed"
	}
	fmt.Fprintf(env.Stderr, "cairn mcp: project %s on stdio (%s)\n", p.Dir(), access)
	if err := srv.Run(ctx, io.NopCloser(env.Stdin), nopWriteCloser{env.Stdout}); err != nil && ctx.Err() == nil {
		return env.fail(err)
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
