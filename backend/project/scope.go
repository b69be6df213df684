package project

import (
	"context"
	"fmt"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/route"
)

// Scope decides what a question or search q is put to: the documents the
// user chose (docs; each must exist), else the documents the question
// names (routing: backend/route), else the whole project (nil).
func (p *Project) Scope(ctx context.Context, q *question.Question, docs []int64) (*kb.Scope, error) {
	all, err := p.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]kb.Document, len(all))
	for _, d := range all {
		byID[d.ID] = d
	}
	if len(docs) > 0 {
		sc := &kb.Scope{}
		seen := map[int64]bool{}
		for _, id := range docs {
			d, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("document %d is not in this project (cairn docs lists them)", id)
			}
			if !seen[id] {
				seen[id] = true
				sc.Docs = append(sc.Docs, id)
				sc.Titles = append(sc.Titles, d.Title)
			}
		}
		return sc, nil
	}
	rd := make([]route.Doc, 0, len(all))
	for _, d := range all {
		if d.Status != kb.StatusOK && d.Status != kb.StatusNeedsOCR {
			continue
		}
		rd = append(rd, route.Doc{ID: d.ID, Title: d.Title, Organisation: d.Organisation, DocType: d.DocType, Period: d.Period, FileName: d.FileName, Chunks: d.Chunks})
	}
	r := route.Question(q, rd)
	if len(r.Docs) == 0 {
		return nil, nil
	}
	sc := &kb.Scope{Docs: r.Docs, Routed: true, Because: r.Because}
	for _, id := range r.Docs {
		sc.Titles = append(sc.Titles, byID[id].Title)
	}
	return sc, nil
}
