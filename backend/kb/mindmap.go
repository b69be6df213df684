package kb

// MindKind is the role of a mind-map node (PG-RAG): one topic per document,
// routes (keyword paths, 1–3 levels) under it, facts as leaves.
type MindKind string

const (
	MindTopic MindKind = "topic"
	MindRoute MindKind = "route"
	MindFact  MindKind = "fact"
)

// MindNode is one node of a document's mind map. Facts always carry their
// chunk and page span; Supernode is the cross-document cluster the node was
// fused into (0: none).
type MindNode struct {
	ID        int64    `json:"id"`
	Parent    int64    `json:"parent"` // 0 for the topic
	Kind      MindKind `json:"kind"`
	Label     string   `json:"label"`
	DocID     int64    `json:"doc_id"`
	Supernode int64    `json:"supernode,omitempty"`
	ChunkID   int64    `json:"chunk_id,omitempty"`
	PageStart int      `json:"page_start,omitempty"`
	PageEnd   int      `json:"page_end,omitempty"`
	CharStart int      `json:"char_start,omitempty"`
	CharEnd   int      `json:"char_end,omitempty"`
}

// Supernode is a cluster of similar nodes from different documents: the
// pseudo-graph's shared nodes.
type Supernode struct {
	ID      int64    `json:"id"`
	Label   string   `json:"label"`
	Kind    MindKind `json:"kind"`
	Members []int64  `json:"members"`
	DocIDs  []int64  `json:"doc_ids"`
}

// MindMap is one document's tree, or the fused map of the collection.
type MindMap struct {
	Nodes      []MindNode  `json:"nodes"`
	Supernodes []Supernode `json:"supernodes"`
}
