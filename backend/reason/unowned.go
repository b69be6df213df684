package reason

import (
	"context"
	"fmt"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
)

// A question can ask something of an organisation no document of the
// library is about ("What was Kestrel's operating income?" in a library of
// other companies' reports; route.Route.Unowned). The documents' figures
// and names are their own organisations', so none is the answer; what the
// answer can show is where the library mentions the name.

// unownedNote says that no document of the project is about names, so
// the documents' own figures and names are not the answer.
func unownedNote(names []string) string {
	return fmt.Sprintf("No document in this project is about %s; the documents are about other organisations, and their own figures do not answer this question.", quotedList(names))
}

// mentioning keeps of the evidence the passages that mention one of the
// unowned names, adding the passages of the scope that mention them most
// (as the lexical index matches words), up to k in all; the evidence
// stays as it is when nothing mentions them.
func (u *run) mentioning(ctx context.Context, ev []Evidence, k int) ([]Evidence, error) {
	var keep []Evidence
	var names [][]string
	for _, n := range u.r.Unowned {
		var words []string
		for _, t := range analyze.Tokens(n) {
			words = append(words, t.Text)
		}
		if len(words) > 0 {
			names = append(names, words)
		}
	}
	says := func(text string) bool {
		toks := analyze.Tokens(text)
		for _, ws := range names {
			for i := 0; i+len(ws) <= len(toks); i++ {
				match := true
				for j, w := range ws {
					if toks[i+j].Text != w {
						match = false
						break
					}
				}
				if match {
					return true
				}
			}
		}
		return false
	}
	for _, e := range ev {
		if says(e.Hit.Text) {
			keep = append(keep, e)
		}
	}
	for _, ws := range names {
		if len(keep) >= k {
			break
		}
		ids, err := u.r.Retriever.Match(ctx, `{title heading body} : "`+strings.Join(ws, " ")+`"`, [4]float64{1, 1, 1, 1}, k)
		if err != nil {
			return nil, err
		}
		hits, err := u.r.Retriever.Passages(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if len(keep) < k {
				keep, _ = withPassage(keep, h)
			}
		}
	}
	if len(keep) == 0 {
		return ev, nil
	}
	for i := range keep {
		keep[i].N = i + 1
	}
	return keep, nil
}

// throughAny says path p has a node named by one of names (a node whose
// words hold the name's: "Kestrel" is in "Kestrel Lamps").
func throughAny(p kb.Path, names []string) bool {
	for _, n := range p.Nodes {
		for _, name := range names {
			if named(n, name) {
				return true
			}
		}
	}
	return false
}
