package kb

// Source is where a derived fact came from: the chunk, its page span and the
// byte span inside the document text (see Chunk). Every entity mention,
// relation, mind-map fact, path edge and citation carries one.
type Source struct {
	DocID     int64 `json:"doc_id"`
	ChunkID   int64 `json:"chunk_id"`
	PageStart int   `json:"page_start"`
	PageEnd   int   `json:"page_end"`
	CharStart int   `json:"char_start"`
	CharEnd   int   `json:"char_end"`
}

// Entity is a node of the knowledge graph. Type is coarse (person,
// organisation, place, concept, ...); SemanticType is finer when known.
// Mentions are the mutual index: every chunk that names the entity.
type Entity struct {
	ID           int64    `json:"id"`
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	SemanticType string   `json:"semantic_type,omitempty"`
	Description  string   `json:"description,omitempty"`
	Aliases      []string `json:"aliases"`
	Mentions     []Source `json:"mentions"`
	// Values are the dates, amounts, percentages and quantities the text
	// states of the entity (facts, never graph nodes); filled where asked
	// for (the entity's card), not in whole-graph reads.
	Values []Value `json:"values,omitempty"`
}

// Value is a date, amount, percentage or quantity a sentence states of an
// entity: Kind is date, money, percent or quantity; Text the value as
// written; Source the value's own span (its sentence is around it).
type Value struct {
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	Source Source `json:"source"`
}

// Relation is an edge of the knowledge graph between two entities, with the
// sentence that states it and every chunk it was found in.
type Relation struct {
	ID          int64    `json:"id"`
	Subject     int64    `json:"subject"`
	Predicate   string   `json:"predicate"`
	Object      int64    `json:"object"`
	SubjectName string   `json:"subject_name,omitempty"`
	ObjectName  string   `json:"object_name,omitempty"`
	Statement   string   `json:"statement"`
	Confidence  float64  `json:"confidence"`
	Sources     []Source `json:"sources"`
}

// ExtractStatus is the outcome of extraction for one chunk: never "done" with
// silently empty output.
type ExtractStatus string

const (
	ExtractPending ExtractStatus = "pending"
	ExtractOK      ExtractStatus = "ok"     // at least one entity, relation or fact kept
	ExtractEmpty   ExtractStatus = "empty"  // the extractor ran and found nothing (reason recorded)
	ExtractFailed  ExtractStatus = "failed" // the model call failed; reason recorded; retried on the next run
)

// Graph is a set of entities and the relations between them: the whole
// knowledge graph (export) or a neighbourhood of it (explorer, answers).
type Graph struct {
	Entities  []Entity   `json:"entities"`
	Relations []Relation `json:"relations"`
}

// Fact is an atomic, self-contained statement extracted from one chunk,
// with the span of the sentence it paraphrases (mind maps are built from
// these).
type Fact struct {
	ID      int64  `json:"id"`
	Ordinal int    `json:"ordinal"` // order inside its chunk
	Text    string `json:"text"`
	Source  Source `json:"source"`
}

// ExtractCounts are the numbers of chunks per extraction status.
type ExtractCounts struct {
	OK      int `json:"ok"`
	Empty   int `json:"empty"`
	Failed  int `json:"failed"`
	Pending int `json:"pending"`
}
