package bench

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"cairn/backend/store"
)

// Storage: database bytes per 1k chunks and the share of each part (vectors,
// lexical index, chunk text, ...) from SQLite's dbstat virtual table.

// StoragePart names the part of the schema a table or index belongs to
// (SQLite names indexes and FTS5 shadow tables after their table; vectors
// live in plain tables since migrations 0006–0008).
func StoragePart(name string) string {
	n := strings.TrimPrefix(name, "sqlite_autoindex_")
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(n, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("chunks_vec"):
		return "chunk vectors"
	case has("entities_vec", "relations_vec"):
		return "graph vectors"
	case has("mind_vec"):
		return "mind-map vectors"
	case has("chunks_fts"):
		return "chunk lexical index (FTS5)"
	case has("mind_fts"):
		return "mind-map lexical index (FTS5)"
	case has("chunks"):
		return "chunks"
	case has("pages"):
		return "pages"
	case has("term_df"):
		return "term frequencies"
	case has("documents"):
		return "documents"
	case has("entit", "mentions", "relation", "facts", "chunk_extractions", "concept"):
		return "knowledge graph tables"
	case has("mind_", "supernode"):
		return "mind-map tables"
	}
	return "other (schema, meta, answers, ...)"
}

// partSlug is a figure id fragment for a part ("chunk vectors (vec0)" →
// "chunk_vectors").
func partSlug(part string) string {
	base, _, _ := strings.Cut(part, " (")
	return strings.NewReplacer(" ", "_", "-", "_").Replace(base)
}

// storageParts sums dbstat page bytes per part.
func storageParts(ctx context.Context, st *store.Store) (map[string]int64, int64, error) {
	bytes, err := st.TableBytes(ctx)
	if err != nil {
		return nil, 0, err
	}
	parts := map[string]int64{}
	var total int64
	for name, n := range bytes {
		parts[StoragePart(name)] += n
		total += n
	}
	return parts, total, nil
}

func measureStorage(ctx context.Context, env *Env) ([]Figure, error) {
	scales, err := env.scaleCorpora(ctx)
	if err != nil {
		return nil, err
	}
	const group = "5. Storage"
	var figs []Figure
	for _, s := range scales {
		size := fileBytes(s.DB())
		st, err := store.Open(s.DB())
		if err != nil {
			return figs, err
		}
		parts, total, err := storageParts(ctx, st)
		st.Close()
		if err != nil {
			return figs, err
		}
		per1k := float64(size) / (float64(s.Chunks) / 1000)
		figs = append(figs, Figure{ID: fmt.Sprintf("storage.%d.mb_per_1k_chunks", s.Chunks), Group: group,
			Name: fmt.Sprintf("database size per 1k chunks, %d-chunk eval corpus (%.1f MB file; one document and page per chunk)", s.Chunks, float64(size)/1e6),
			Unit: "MB", Stat: Stat{Runs: []float64{per1k / 1e6}}})
		names := make([]string, 0, len(parts))
		for n := range parts {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return parts[names[i]] > parts[names[j]] })
		for _, n := range names {
			figs = append(figs, Figure{ID: fmt.Sprintf("storage.%d.share.%s", s.Chunks, partSlug(n)), Group: group,
				Name: fmt.Sprintf("  share: %s (%.1f MB)", n, float64(parts[n])/1e6), Unit: "%",
				Stat: Stat{Runs: []float64{100 * float64(parts[n]) / float64(max(total, 1))}}})
		}
	}
	return figs, nil
}
