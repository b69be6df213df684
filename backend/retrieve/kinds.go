package retrieve

import (
	"context"
	"slices"
)

// EntityKinds gives the graph's type ("person", "location", "work", …) of
// the entities the chunks mention, by each of their names (the entity's
// name and its aliases, as written). A name two entities of different
// types share is left out: the graph does not say which it is. It keeps
// no scope: the chunks are the caller's.
func (r *Retriever) EntityKinds(ctx context.Context, chunkIDs []int64) (map[string]string, error) {
	if len(chunkIDs) == 0 {
		return nil, nil
	}
	byChunk, err := r.Store.ChunkEntities(ctx, chunkIDs)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, es := range byChunk {
		ids = append(ids, es...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ents, err := r.Store.EntitiesByID(ctx, ids, 0)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	clash := map[string]bool{}
	for _, e := range ents {
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if t, ok := out[n]; ok && t != e.Type {
				clash[n] = true
			}
			out[n] = e.Type
		}
	}
	for n := range clash {
		delete(out, n)
	}
	return out, nil
}
