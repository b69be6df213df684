package project

import (
	"context"
	"fmt"

	"cairn/backend/identity"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/route"
	"cairn/backend/tables"
)

// Scope decides what a question or search q is put to: the documents the
// user chose (docs; each must exist), else the documents the question
// names (routing: backend/route), else the whole project (nil).
func (p *Project) Scope(ctx context.Context, q *question.Question, docs []int64) (*kb.Scope, error) {
	all, err := p.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	sc, _, err := scopeIn(all, q, docs)
	return sc, err
}

// scopeIn is Scope among the project's documents all; it also returns
// the names the question asks something of that no document is about
// (route.Route.Unowned), when it is routed.
func scopeIn(all []kb.Document, q *question.Question, docs []int64) (*kb.Scope, []string, error) {
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
				return nil, nil, fmt.Errorf("document %d is not in this project (cairn docs lists them)", id)
			}
			if !seen[id] {
				seen[id] = true
				sc.Docs = append(sc.Docs, id)
				sc.Titles = append(sc.Titles, d.Title)
			}
		}
		return sc, nil, nil
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
		return nil, r.Unowned, nil
	}
	sc := &kb.Scope{Docs: r.Docs, Routed: true, Because: r.Because}
	for _, id := range r.Docs {
		sc.Titles = append(sc.Titles, byID[id].Title)
	}
	return sc, r.Unowned, nil
}

// FiscalEndsOf is the day each document's fiscal years end on, where the
// library tells it: an organisation's annual reports give it by their
// period ("FY ended Jan 25, 2025"; identity.FiscalYearEnd), and every
// document of that organisation, its quarterly reports too, takes it (the
// day most of its annual reports give). Documents of an organisation with
// no annual report are left out: their tables' dates are calendar dates.
func FiscalEndsOf(docs []kb.Document) map[int64]tables.FiscalEnd {
	votes := map[string]map[tables.FiscalEnd]int{}
	for _, d := range docs {
		if d.Organisation == "" {
			continue
		}
		if m, day, ok := identity.FiscalYearEnd(d.Period); ok {
			if votes[d.Organisation] == nil {
				votes[d.Organisation] = map[tables.FiscalEnd]int{}
			}
			votes[d.Organisation][tables.FiscalEnd{Month: m, Day: day}]++
		}
	}
	out := map[int64]tables.FiscalEnd{}
	for _, d := range docs {
		best, n := tables.FiscalEnd{}, 0
		for end, c := range votes[d.Organisation] {
			if c > n || c == n && (end.Month < best.Month || end.Month == best.Month && end.Day < best.Day) {
				best, n = end, c
			}
		}
		if n > 0 {
			out[d.ID] = best
		}
	}
	return out
}
