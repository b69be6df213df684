package reason

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// Paths that mean something (issue 28): a reasoning path is drawn only
// when it touches the question — an entity the question names or was
// linked to, or a document it was asked of or routed to — or the answer —
// a node the answer names, or a step stated in a cited sentence. Each
// drawn path says what kind it is: graph relations, or a chain of
// sentences.

// Path kinds (kb.Path.Kind).
const (
	KindRelations = "relations" // every step is a relation of the knowledge graph
	KindSentences = "sentences" // every step is a sentence joining two names
	KindMixed     = "mixed"     // some of each
	KindTable     = "table"     // the rows and cells a figure was read from
)

// PathKind says what a path's steps are (a table's reading keeps its
// kind): a step is a graph relation when
// it is one (its id) and states something (a predicate, not a sentence
// quoted because the two names only co-occur in it).
func PathKind(p kb.Path) string {
	if p.Kind == KindTable {
		return KindTable
	}
	rel, sent := 0, 0
	for _, e := range p.Edges {
		if e.Relation > 0 && e.Sentence == "" && e.Predicate != relphrase.CoOccurs {
			rel++
		} else {
			sent++
		}
	}
	switch {
	case sent == 0 && rel > 0:
		return KindRelations
	case rel == 0:
		return KindSentences
	}
	return KindMixed
}

// Anchors are what a drawn path must touch.
type Anchors struct {
	Question  string      // the question as asked
	Entities  []string    // the entities (and question spans) retrieval linked it to
	Documents []string    // titles of the documents it was put to or routed to
	Answer    string      // the short answer when there is one, else the answer's text
	Cited     []kb.Source // the spans the answer cites
}

// Touch says which side of a path touches its anchors.
type Touch struct {
	Question, Answer bool
}

// Touches reports whether path p touches the question's side and the
// answer's side.
func (a Anchors) Touches(p kb.Path) Touch {
	var t Touch
	for _, n := range p.Nodes {
		if !t.Question && a.questionNode(n) {
			t.Question = true
		}
		if !t.Answer && a.Answer != "" && (named(a.Answer, n) || named(n, a.Answer)) {
			t.Answer = true
		}
	}
	for _, e := range p.Edges {
		if t.Answer {
			break
		}
		for _, c := range a.Cited {
			if e.Source.ChunkID == c.ChunkID && e.Source.CharStart < c.CharEnd && c.CharStart < e.Source.CharEnd {
				t.Answer = true
				break
			}
		}
	}
	return t
}

func (a Anchors) questionNode(n string) bool {
	if named(a.Question, n) {
		return true
	}
	for _, e := range a.Entities {
		if named(e, n) || named(n, e) {
			return true
		}
	}
	for _, d := range a.Documents {
		if named(d, n) {
			return true
		}
	}
	return false
}

// PathCounts counts what DrawnPaths did: the drawn paths touching the
// question and those touching the answer (a path may do both), and the
// paths left out.
type PathCounts struct {
	Question int `json:"question"`
	Answer   int `json:"answer"`
	Dropped  int `json:"dropped"`
}

// DrawnPaths keeps the paths that touch the question or the answer, in
// their order, each with its Kind set, and counts them.
func DrawnPaths(a Anchors, paths []kb.Path) (kept []kb.Path, c PathCounts) {
	for _, p := range paths {
		t := a.Touches(p)
		if !t.Question && !t.Answer {
			c.Dropped++
			continue
		}
		if t.Question {
			c.Question++
		}
		if t.Answer {
			c.Answer++
		}
		p.Kind = PathKind(p)
		kept = append(kept, p)
	}
	return kept, c
}

// named says whether name occurs in text as whole words, ignoring case
// and runs of spaces (a name of fewer than two letters or digits never
// does).
func named(text, name string) bool {
	n := fold(name)
	if alnum(n) < 2 {
		return false
	}
	t := fold(text)
	for from := 0; from <= len(t)-len(n); {
		i := strings.Index(t[from:], n)
		if i < 0 {
			return false
		}
		i += from
		if boundary(t, i-1, true) && boundary(t, i+len(n), false) {
			return true
		}
		_, w := utf8.DecodeRuneInString(t[i:])
		from = i + w
	}
	return false
}

func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func alnum(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// boundary says whether the byte at i of t (before the match when before)
// ends a word: outside t, or not a letter or digit.
func boundary(t string, i int, before bool) bool {
	if i < 0 || i >= len(t) {
		return true
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(t[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(t[i:])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
