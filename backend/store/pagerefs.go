package store

import (
	"context"
	"strings"
)

// ChunksOnPages returns the passages on the pages a question names, within
// the documents docs (all when empty), each list in reading order:
// byLabel those on a page printed with one of labels (the page label of
// its layout: "12", "iv"), byPlace those on a page at one of the places
// numbers (1-based) in its file, or on a document's last page with text
// when last is set. A passage over several pages counts for each.
func (s *Store) ChunksOnPages(ctx context.Context, docs []int64, numbers []int, labels []string, last bool) (byLabel, byPlace []int64, err error) {
	inDocs := ""
	var docArgs []any
	if len(docs) > 0 {
		var ph string
		ph, docArgs = inList(docs)
		inDocs = " AND c.doc_id IN (" + ph + ")"
	}
	if len(labels) > 0 {
		args := make([]any, 0, len(labels)+len(docArgs))
		for _, l := range labels {
			args = append(args, l)
		}
		args = append(args, docArgs...)
		byLabel, err = s.queryInt64s(ctx, `SELECT DISTINCT c.id FROM pages p
			JOIN chunks c ON c.doc_id = p.doc_id AND c.page_start <= p.number AND c.page_end >= p.number
			WHERE json_extract(nullif(p.layout, ''), '$.label') IN (`+placeholders(len(labels))+`)`+inDocs+`
			ORDER BY c.doc_id, c.ordinal`, args...)
		if err != nil {
			return nil, nil, err
		}
	}
	var where []string
	var args []any
	for _, n := range numbers {
		where = append(where, "(c.page_start <= ? AND c.page_end >= ?)")
		args = append(args, n, n)
	}
	from := "chunks c"
	if last {
		// Each document's last page with text, found once per document.
		from += " JOIN (SELECT doc_id, max(page_end) AS page FROM chunks GROUP BY doc_id) l ON l.doc_id = c.doc_id"
		where = append(where, "c.page_end = l.page")
	}
	if len(where) > 0 {
		args = append(args, docArgs...)
		byPlace, err = s.queryInt64s(ctx, `SELECT c.id FROM `+from+` WHERE (`+strings.Join(where, " OR ")+`)`+inDocs+`
			ORDER BY c.doc_id, c.ordinal`, args...)
		if err != nil {
			return nil, nil, err
		}
	}
	return byLabel, byPlace, nil
}
