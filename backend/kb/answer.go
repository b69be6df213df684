package kb

import "encoding/json"

// Citation is one cited passage of an answer; N is the [n] marker used in
// the answer text.
type Citation struct {
	N int `json:"n"`
	Source
	DocTitle string `json:"doc_title,omitempty"`
	Text     string `json:"text"`
}

// PathEdge is one step of a reasoning path, with the passage that states it.
type PathEdge struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Predicate string `json:"predicate"`
	Relation  int64  `json:"relation,omitempty"` // relation id, when the edge is a graph relation
	Source    Source `json:"source"`
	// Sentence is the sentence joining From and To, in full, when the
	// predicate is not a phrase the text states (the label then quotes it).
	Sentence string `json:"sentence,omitempty"`
}

// Path is an ordered chain of facts from the question towards the answer,
// scored by the rethinking step (higher is more important).
type Path struct {
	Score      float64 `json:"score"`
	Semantic   float64 `json:"semantic,omitempty"`
	Structural float64 `json:"structural,omitempty"`
	Chosen     bool    `json:"chosen,omitempty"`
	// Kind is what the steps are: "relations" (of the knowledge graph),
	// "sentences" (a chain of sentences joining names) or "mixed".
	Kind  string     `json:"kind,omitempty"`
	Nodes []string   `json:"nodes"`
	Edges []PathEdge `json:"edges"`
}

// Answer is what the user gets back for a question: the text with [n]
// markers, its citations and paths, and the full trace (plan, steps,
// subgraph, timings, LLM usage) kept with it.
type Answer struct {
	ID       int64  `json:"id,omitempty"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Declined bool   `json:"declined"`
	// Outcome tells the three outcomes apart: OutcomeAnswer (an answer was
	// formed), OutcomeEvidence (passages about the question were found but
	// no answer could be formed from them without a model; not declined)
	// or OutcomeDeclined (nothing in the scope answers it; Declined).
	Outcome string `json:"outcome"`
	// Cut says why the answer is incomplete: the model stopped at its
	// length limit and a continuation did not finish it ("" when complete).
	Cut       string          `json:"cut,omitempty"`
	Mode      string          `json:"mode"` // "quick" or "deep"
	Citations []Citation      `json:"citations"`
	Paths     []Path          `json:"paths"`
	Trace     json.RawMessage `json:"trace"`
	AskedAt   string          `json:"asked_at,omitempty"`
	// Short is the short answer the text leads with, when one was found.
	Short *ShortAnswer `json:"short,omitempty"`
	// Scope is what the question was put to: the documents the user chose,
	// or those routing chose because the question names them (nil: the
	// whole project). Kept in the stored trace too.
	Scope *Scope `json:"scope,omitempty"`
	// Cells are the table cells the answer reads its figures from, when
	// it does (offline: the row and column the question names).
	Cells []TableCell `json:"cells,omitempty"`
	// Formula is the arithmetic done on the cells, written out ("Change
	// 2016 → 2017: 54 − 42 = +12 (+28.57 %)"), when there is any.
	Formula string `json:"formula,omitempty"`
}

// The outcomes of an answer (Answer.Outcome).
const (
	OutcomeAnswer   = "answer"
	OutcomeEvidence = "evidence"
	OutcomeDeclined = "declined"
)

// OutcomeOf is the outcome of an answer stored before answers carried
// one: declined, else an answer.
func OutcomeOf(declined bool) string {
	if declined {
		return OutcomeDeclined
	}
	return OutcomeAnswer
}

// TableCell is one figure an answer takes from a table: the row's label
// (and the section row above it), the column's heads, the table's unit,
// the value as printed and as a number, and the citation [N] of its row.
type TableCell struct {
	N       int     `json:"n"`
	Row     string  `json:"row"`
	Section string  `json:"section,omitempty"`
	Column  string  `json:"column,omitempty"`
	Unit    string  `json:"unit,omitempty"`
	Value   string  `json:"value"`
	Number  float64 `json:"number"`
	Year    int     `json:"year,omitempty"`
	// Via is the label of the row, in another table, that names the
	// quantity asked and prints the same figures as this one's row.
	Via string `json:"via,omitempty"`
	// Rank says where the row stands when the question asked which item
	// has the most or least ("highest of 4 rows"), or the condition it
	// meets when the question picked rows by one ("Races rowed > 8").
	Rank string `json:"rank,omitempty"`
}

// ShortAnswer is the one-phrase answer an answer leads with: its text, the
// citation [N] that states it, the citations of its supporting sentences
// in reasoning order, the question's kind and the answer's score.
type ShortAnswer struct {
	Text    string  `json:"text"`
	N       int     `json:"n"`
	Support []int   `json:"support"`
	Kind    string  `json:"kind"`
	Score   float64 `json:"score"`
}
