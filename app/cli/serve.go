package cli

import (
	"context"

	"cairn/app"
)

func cmdServe(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("serve")
	dir := fs.String("project", "", "project folder (created if missing)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	a := app.New(p)
	a.SetOllamaHost(env.Ollama, env.Offline) // followed while serving (mode:changed events)
	if err := app.Serve(ctx, a, env.Assets, *addr, env.Stdout); err != nil && ctx.Err() == nil {
		return env.fail(err)
	}
	return 0
}
