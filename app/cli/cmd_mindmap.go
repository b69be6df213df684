package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"cairn/backend/kb"
	"cairn/backend/mindmap"
	"cairn/backend/project"
	"cairn/backend/store"
)

// cmdMindMap prints a document's mind map or the fused pseudo-graph. Maps
// not built yet are built first (offline unless a model is configured).
func cmdMindMap(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("mindmap")
	dir := fs.String("project", "", "project folder")
	doc := fs.Int64("doc", 0, "document id")
	fused := fs.Bool("fused", false, "the fused map of all documents")
	format := fs.String("format", "json", "json, md or opml")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if *doc == 0 && len(rest) == 1 {
		if id, err := strconv.ParseInt(rest[0], 10, 64); err == nil {
			*doc, rest = id, nil
		}
	}
	if len(rest) > 0 || (*doc == 0) == !*fused || (*format != "json" && *format != "md" && *format != "opml") {
		fmt.Fprintln(env.Stderr, "usage: cairn mindmap --project DIR [--doc ID | --fused] [--format json|md|opml]")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	get := func() (kb.MindMap, error) {
		if *fused {
			return p.FusedMindMap(ctx)
		}
		return p.MindMap(ctx, *doc)
	}
	m, err := get()
	if errors.Is(err, store.ErrNoMindMap) || (err == nil && *fused && pendingMaps(ctx, p)) {
		fmt.Fprintln(env.Stderr, "building mind maps…")
		if err := p.BuildMindMaps(ctx, nil); err != nil {
			return env.fail(err)
		}
		m, err = get()
	}
	if err != nil {
		return env.fail(err)
	}
	title := "Fused mind map"
	if !*fused {
		d, err := p.Store().Document(ctx, *doc)
		if err != nil {
			return env.fail(err)
		}
		title = d.Title
	}
	switch *format {
	case "md", "opml":
		err = mindmap.Export(env.Stdout, *format, title, m)
	default:
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(m)
	}
	if err != nil {
		return env.fail(err)
	}
	return 0
}

func pendingMaps(ctx context.Context, p *project.Project) bool {
	ids, err := p.Store().DocsWithoutMindMap(ctx)
	return err == nil && len(ids) > 0
}
