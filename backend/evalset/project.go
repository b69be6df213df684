package evalset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cairn/backend/project"
)

// BuildProject builds a Cairn project in dir from the corpus (see Build)
// and runs every indexing stage (knowledge graph, mind maps) on it, so the
// graph and mind-map retrievers have their lists. dir must not hold a
// project yet. progress may be nil.
func BuildProject(ctx context.Context, dir string, corpus []Passage, progress func(project.IndexProgress)) (*project.Project, error) {
	if _, err := os.Stat(filepath.Join(dir, project.DBName)); err == nil {
		return nil, fmt.Errorf("%s already holds a project", dir)
	}
	p, err := project.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := Build(ctx, p.Store(), p.Embedder(), corpus); err != nil {
		p.Close()
		return nil, err
	}
	if err := p.Index(ctx, progress); err != nil {
		p.Close()
		return nil, fmt.Errorf("index: %w", err)
	}
	return p, nil
}

// IndexKey names what an indexed eval project depends on besides its
// corpus: the schema version and the registered index stages.
func IndexKey() string {
	return strings.Join(project.IndexStages(), "+")
}
