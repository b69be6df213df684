// Package reason answers a question from retrieved evidence and shows how:
// quick answers (retrieve → one KG-RAG rerank call → a streamed answer with
// [n] citations), deep answers (a JSON plan of retrieval, sort, math, deduce
// and output steps executed in Go, graph first with a passage fallback, with
// up to three reflection rounds), reasoning paths (structural paths between
// question and candidate answer entities scored by random-walk mass from
// both ends, semantic paths proposed by the model and grounded on the graph,
// ordered by the rethinking score S = λ1·semantic + λ2·structural), and
// trust: abstention when the evidence is weak, extractive answers offline.
// Everything it did is recorded in a Trace kept with the answer.
package reason

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// Trace is everything behind one answer, stored as JSON with it.
type Trace struct {
	Mode string `json:"mode"`
	// Scope is what the question was put to (nil: the whole project).
	Scope    *kb.Scope `json:"scope,omitempty"`
	Offline  bool      `json:"offline"`
	Fallback string    `json:"fallback,omitempty"` // why deep mode fell back to quick
	// PathsDropped counts the reasoning paths not drawn because they
	// touch neither the question nor the answer; PathsTouch counts the
	// drawn ones touching each (DrawnPaths).
	PathsDropped int         `json:"paths_dropped,omitempty"`
	PathsTouch   *PathCounts `json:"paths_touch,omitempty"`
	// AnswerBy says who wrote the answer text: "model", "extractive" (the
	// best-supported sentences of the passages), "table" (a figure read
	// from a table's cell, then those sentences) or "declined".
	AnswerBy string `json:"answer_by"`
	// Unowned are the names the question asks something of that no
	// document of the library is about (Reasoner.Unowned).
	Unowned []string `json:"unowned,omitempty"`
	// Outcome is the answer's outcome (kb.Answer.Outcome): "answer",
	// "evidence" (passages about the question, no answer formed from them
	// without a model) or "declined"; the store reads it back from here.
	Outcome string `json:"outcome"`
	// AnswerFallback is why a model answer was replaced by the extractive
	// one (the model failed, timed out, or its stream broke off).
	AnswerFallback string `json:"answer_fallback,omitempty"`
	// AnswerCut is set when the model's answer stopped at its length
	// limit (done_reason "length") and stayed unfinished after
	// AnswerContinued follow-up calls: the answer is incomplete.
	AnswerCut       string `json:"answer_cut,omitempty"`
	AnswerContinued int    `json:"answer_continued,omitempty"`
	// CitationsBy says how the citations were chosen when the model wrote
	// no [n] marker: "overlap" (passages sharing the answer's words) or
	// "none".
	CitationsBy string `json:"citations_by,omitempty"`
	// Short is the extractive short answer (the store reads it back from
	// here), and Candidates the runners-up considered.
	// Formula is the formula the question states and how far its
	// quantities were found in tables.
	Formula *FormulaTrace `json:"formula,omitempty"`
	// ReadAs: figures named in words no table row of the scope prints,
	// read in a synonym's (WordNet) whose row was found.
	ReadAs     []ReadAs        `json:"read_as,omitempty"`
	Short      *kb.ShortAnswer `json:"short,omitempty"`
	Candidates []ShortTrace    `json:"short_candidates,omitempty"`
	// Language is the question's language (lexicon.Detect), and NoShort
	// why no short answer was sought: a language without a lexicon gets
	// the best supporting sentences only.
	Language string `json:"language,omitempty"`
	NoShort  string `json:"no_short,omitempty"`
	// Respelled are the question's words read as another spelling the
	// project holds (project.Analyse); the answer ends saying so.
	Respelled []question.Respelling `json:"respelled,omitempty"`
	// LongForm is the long form a document of the scope writes for the
	// short form the question asks about ("Quiet River Test Laboratory"
	// for "QRTL"); it leads the answer.
	LongForm string `json:"long_form,omitempty"`
	// SectionTitles are the titles the scope's headings give the labelled
	// parts the question asks about ("Reading the Grain Ledger" for
	// "Unit 7"); they lead the answer.
	SectionTitles []string `json:"section_titles,omitempty"`
	// Parts are the labels of the parts of the document the question
	// counts ("Table 1", "Table 2"; inventory.go); their count leads the
	// answer.
	Parts []string `json:"parts,omitempty"`
	// KeyedCells are the cells of tables of words the question names by
	// their rows' keys ("12: Element too hot"; keyedcell.go);
	// they lead the answer.
	KeyedCells []string `json:"keyed_cells,omitempty"`
	// FilteredRows are the keys of the rows of a table the question picks
	// by a condition ("Ada Lind"; filteredrows.go); they lead the answer.
	FilteredRows []string `json:"filtered_rows,omitempty"`
	// DistinctValues are the different values of the column the question
	// counts ("Lower the temperature."; distinctrows.go); their count leads the
	// answer.
	DistinctValues []string `json:"distinct_values,omitempty"`
	// ListItems are the items of the list the question asks for, as a
	// passage sets them out (lists.go); they lead the answer.
	ListItems []string `json:"list_items,omitempty"`
	// Subsections are the headings directly under the heading the
	// question quotes (SubsectionsOf; subsections.go); they lead the
	// answer.
	Subsections   []string `json:"subsections,omitempty"`
	SubsectionsOf string   `json:"subsections_of,omitempty"`

	Retrieval RetrievalTrace `json:"retrieval"`
	Rerank    *RerankTrace   `json:"rerank,omitempty"`
	Semantic  []Chain        `json:"semantic_chains,omitempty"`
	Support   SupportTrace   `json:"support"`

	Plan   *Plan        `json:"plan,omitempty"`
	Rounds []RoundTrace `json:"rounds,omitempty"`

	Subgraph kb.Graph             `json:"subgraph"`
	Timings  map[string]int64     `json:"timings_ms"`
	Usage    llm.Usage            `json:"usage"`
	ByTask   map[string]llm.Usage `json:"usage_by_task,omitempty"`
	Errors   []string             `json:"errors,omitempty"` // model failures that were worked around
}

// ShortTrace is one candidate short answer considered.
type ShortTrace struct {
	Text  string  `json:"text"`
	Type  string  `json:"type"`
	Score float64 `json:"score"`
}

// RetrievalTrace summarises retrieval: the lists, the linked question
// entities and the evidence passages kept.
type RetrievalTrace struct {
	Lists      []retrieve.List   `json:"lists"`
	Linked     []retrieve.Linked `json:"linked"`
	Evidence   []int64           `json:"evidence"` // chunk ids, in the order given to the answer
	Candidates []int64           `json:"candidates,omitempty"`
	Timings    map[string]int64  `json:"timings_ms"`
}

// RerankTrace is the KG-RAG rerank call's outcome.
type RerankTrace struct {
	Thought   string  `json:"thought"`
	Relations []int64 `json:"relations"`
	Error     string  `json:"error,omitempty"`
}

// SupportTrace is the abstention decision: how much of the question the
// best passage covers (IDF-weighted) against the threshold.
type SupportTrace struct {
	Coverage  float64 `json:"coverage"`
	Joint     float64 `json:"joint"` // coverage by the evidence passages together
	Threshold float64 `json:"threshold"`
	Declined  bool    `json:"declined"`
	// Decided: under the threshold, but a comparison of two items whose
	// dates the evidence holds, so answered.
	Decided bool `json:"decided,omitempty"`
	// Table: under the threshold, but a table of the evidence holds the
	// row and period the question names, so answered from its cell.
	Table bool `json:"table,omitempty"`
	// LongForm: under the threshold, but the question asks what a short
	// form stands for and a document of the scope writes it out.
	LongForm bool `json:"long_form,omitempty"`
	// SectionTitle: under the threshold, but the question asks the title
	// of a labelled part and a heading of the scope gives it.
	SectionTitle bool `json:"section_title,omitempty"`
	// Parts: under the threshold, but the question counts a document's
	// tables, figures, appendices or chapters and its lines label them.
	Parts bool `json:"parts,omitempty"`
	// Keyed: under the threshold, but a table of words among the
	// evidence holds the rows the question names by their keys.
	Keyed bool `json:"keyed,omitempty"`
	// Filtered: under the threshold, but a table of words among the
	// evidence has rows that meet the condition the question sets.
	Filtered bool `json:"filtered,omitempty"`
	// Distinct: under the threshold, but a table of words among the
	// evidence has a column whose values the question counts.
	Distinct bool `json:"distinct,omitempty"`
	// List: under the threshold, but a passage sets out the list the
	// question asks for under an introduction holding its words.
	List bool `json:"list,omitempty"`
	// Subsections: under the threshold, but the question asks for the
	// parts of a section whose heading it quotes, and headings stand
	// under it.
	Subsections bool `json:"subsections,omitempty"`
	// Operands: under the threshold, but the question says how its figure
	// is computed and tables of the scope hold these of its quantities
	// (not all: no figure is computed): their passages are evidence.
	Operands []string `json:"operands,omitempty"`
	// Unmentioned are the words by which the question names what it asks
	// about (question.Anchors) that the documents searched never mention:
	// declined, whatever the coverage.
	Unmentioned []string `json:"unmentioned,omitempty"`
}

// RoundTrace is one planning/execution round of a deep answer.
type RoundTrace struct {
	Question string      `json:"question"`
	Steps    []StepTrace `json:"steps"`
	Answered bool        `json:"answered"`
}

// StepTrace is one executed plan step.
type StepTrace struct {
	ID       int      `json:"id"`
	Op       string   `json:"op"`
	Query    string   `json:"query,omitempty"` // the step with references filled in
	By       string   `json:"by"`              // graph, passages, model, go, none
	Values   []string `json:"values"`
	Evidence []int64  `json:"evidence,omitempty"` // chunk ids
	Note     string   `json:"note,omitempty"`
	MS       int64    `json:"ms"`
}

// DecodeTrace reads a stored trace. It accepts traces written by older
// versions (unknown fields are ignored, missing ones stay zero) and rejects
// anything that is not one JSON object, so a damaged answers row gives an
// error instead of a half-drawn reasoning panel.
func DecodeTrace(raw []byte) (Trace, error) {
	var t Trace
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&t); err != nil {
		return Trace{}, fmt.Errorf("answer trace: %w", err)
	}
	if dec.More() {
		return Trace{}, errors.New("answer trace: extra data after the trace object")
	}
	for i, r := range t.Rounds {
		for j, st := range r.Steps {
			if st.ID < 0 {
				return Trace{}, fmt.Errorf("answer trace: round %d step %d has a negative id", i+1, j+1)
			}
		}
	}
	return t, nil
}

// ReadAs is a figure's name as asked and the synonym its row was found by
// ("capital expenditure" as "capital spending").
type ReadAs struct {
	Name string `json:"name"`
	As   string `json:"as"`
}

// FormulaTrace is a stated formula as the answer tried it: its figure,
// the quantities found (with their figures) and the first one no table
// gave.
type FormulaTrace struct {
	Target  string   `json:"target"`
	Found   []string `json:"found,omitempty"`
	Missing string   `json:"missing,omitempty"`
}
