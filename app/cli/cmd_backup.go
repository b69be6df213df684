package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"cairn/backend/project"
)

func cmdExport(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("export")
	dir := fs.String("project", "", "project folder")
	force := fs.Bool("force", false, "replace OUT.zip if it exists (only a regular file)")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(env.Stderr, "usage: cairn export --project DIR [--force] OUT.zip")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	rep, err := p.ExportWith(ctx, rest[0], *force)
	for _, s := range rep.Skipped {
		fmt.Fprintln(env.Stderr, "note: not in the backup:", s)
	}
	if err != nil {
		return env.fail(err)
	}
	where := rest[0]
	if abs, aerr := filepath.Abs(rest[0]); aerr != nil || abs != rep.Out {
		where += " (" + rep.Out + ")"
	}
	fmt.Fprintf(env.Stdout, "exported %s to %s: %d documents, %d stored originals, %d KiB; cairn import-project restores it\n", p.Dir(), where, rep.Documents, rep.Files, (rep.Bytes+1023)>>10)
	return 0
}

func cmdImportProject(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("import-project")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) != 2 {
		fmt.Fprintln(env.Stderr, "usage: cairn import-project BACKUP.zip DIR")
		return 2
	}
	p, err := project.Restore(ctx, rest[0], rest[1])
	if err != nil {
		return env.fail(err)
	}
	defer p.Close()
	n, c, _ := p.Counts(ctx)
	fmt.Fprintf(env.Stdout, "restored %s: %d documents, %d chunks; check passed\n", p.Dir(), n, c)
	return 0
}
