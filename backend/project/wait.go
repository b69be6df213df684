package project

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cairn/backend/kb"
)

// RemoveWaitLimit is how long RemoveAfterIndexing waits for a running
// indexing run before it gives up and says so.
const RemoveWaitLimit = 10 * time.Minute

// RemoveAfterIndexing is RemoveDocuments for a command run beside another
// process (the CLI): when an indexing run is going on it waits for it to
// finish — onWait hears "indexing is running on this project (pid N);
// waiting…" after a second — and then removes, so the run never meets a
// chunk that vanished under it. It waits at most limit (0: RemoveWaitLimit).
func (p *Project) RemoveAfterIndexing(ctx context.Context, limit time.Duration, onWait func(msg string), ids ...int64) ([]kb.Document, error) {
	if limit <= 0 {
		limit = RemoveWaitLimit
	}
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	unlock, err := p.lockWriter(wctx, lockIndex, func(holder string) {
		if onWait != nil {
			onWait(waitingFor(lockIndex, holder))
		}
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, fmt.Errorf("indexing has been running on this project for longer than %s; nothing was removed: try again when it has finished", limit)
		}
		return nil, err
	}
	defer unlock()
	return p.RemoveDocuments(ctx, ids...)
}
