// Package evalset reads the multi-hop QA sets in ../shared/eval (corpus of
// passages, questions with gold passage ids), builds a Cairn project from a
// corpus (one document and one chunk per passage, the passage id kept as the
// document's file name) and scores retrieval by Recall@k as HippoRAG and KAG
// report it.
package evalset

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/search"
	"cairn/backend/store"
)

// Passage is one corpus entry.
type Passage struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Question is one evaluation question.
type Question struct {
	ID            string   `json:"id"`
	Question      string   `json:"question"`
	Answers       []string `json:"answers"`
	SupportingIDs []string `json:"supporting_ids"`
	Type          string   `json:"type"`
}

// ReadJSONL reads a JSON-lines file, one T a line (blank lines skipped);
// a line that does not decode is an error naming the file and line.
func ReadJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// LoadCorpus reads corpus.jsonl.
func LoadCorpus(path string) ([]Passage, error) { return ReadJSONL[Passage](path) }

// LoadQuestions reads questions.jsonl.
func LoadQuestions(path string) ([]Question, error) { return ReadJSONL[Question](path) }

// LoadDir reads a dataset folder's corpus.jsonl and questions.jsonl.
func LoadDir(dir string) ([]Passage, []Question, error) {
	corpus, err := LoadCorpus(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	qs, err := LoadQuestions(filepath.Join(dir, "questions.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	return corpus, qs, nil
}

// Subset is a small corpus in which qs stay answerable: their supporting
// passages plus the first head passages (distractors), in corpus order.
func Subset(corpus []Passage, qs []Question, head int) []Passage {
	keep := map[string]bool{}
	for _, q := range qs {
		for _, id := range q.SupportingIDs {
			keep[id] = true
		}
	}
	var out []Passage
	for i, p := range corpus {
		if keep[p.ID] || i < head {
			out = append(out, p)
		}
	}
	return out
}

// Build fills an empty store with the corpus: one document per passage
// (title = passage title, file name = passage id), one page, one chunk.
func Build(ctx context.Context, st *store.Store, e embed.Embedder, corpus []Passage) error {
	if err := st.EnsureVectors(ctx, e.Info()); err != nil {
		return err
	}
	for _, p := range corpus {
		sum := sha256.Sum256([]byte(p.ID + "\x00" + p.Text))
		id, err := st.AddDocument(ctx, kb.Document{Title: p.Title, FileName: p.ID, StoredPath: "", Kind: "txt", Hash: hex.EncodeToString(sum[:]), Bytes: int64(len(p.Text))})
		if err != nil {
			return fmt.Errorf("passage %s: %w", p.ID, err)
		}
		c := kb.Chunk{Ordinal: 0, PageStart: 1, PageEnd: 1, CharStart: 0, CharEnd: len(p.Text), Text: p.Text, Tokens: len(analyze.Tokens(p.Text))}
		rows, texts := search.ChunkRows(p.Title, []kb.Chunk{c})
		vec, err := e.Embed(ctx, texts)
		if err != nil {
			return err
		}
		rows[0].Vector = vec[0]
		if err := st.SaveContent(ctx, id, store.Content{
			Title: p.Title, Kind: "txt", Status: kb.StatusOK,
			Pages:  []kb.Page{{Number: 1, Text: p.Text}},
			Chunks: rows,
		}); err != nil {
			return fmt.Errorf("passage %s: %w", p.ID, err)
		}
	}
	return nil
}

// PassageIDs maps hits back to passage ids (the documents' file names).
func PassageIDs(ctx context.Context, st *store.Store, hits []kb.Hit) ([]string, error) {
	name, err := st.DocumentFileNames(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		if id := name[h.DocID]; id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// Recall is |gold ∩ top-k| / |gold|.
func Recall(ranked, gold []string, k int) float64 {
	if len(gold) == 0 {
		return 0
	}
	top := map[string]bool{}
	for i, id := range ranked {
		if i >= k {
			break
		}
		top[id] = true
	}
	n := 0
	for _, g := range gold {
		if top[g] {
			n++
		}
	}
	return float64(n) / float64(len(gold))
}

// NormalizeAnswer lowercases, removes punctuation and the articles a, an,
// the, and collapses spaces (the usual SQuAD/HotpotQA normalisation).
func NormalizeAnswer(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) {
			continue
		}
		b.WriteRune(r)
	}
	var words []string
	for _, w := range strings.Fields(b.String()) {
		if w != "a" && w != "an" && w != "the" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// ExactMatch is 1 when the normalised prediction equals a normalised gold
// answer.
func ExactMatch(pred string, golds []string) float64 {
	p := NormalizeAnswer(pred)
	for _, g := range golds {
		if p == NormalizeAnswer(g) {
			return 1
		}
	}
	return 0
}

// F1 is the best token F1 of the prediction against the gold answers.
func F1(pred string, golds []string) float64 {
	pt := strings.Fields(NormalizeAnswer(pred))
	best := 0.0
	for _, g := range golds {
		gt := strings.Fields(NormalizeAnswer(g))
		if len(pt) == 0 || len(gt) == 0 {
			continue
		}
		count := map[string]int{}
		for _, t := range gt {
			count[t]++
		}
		same := 0
		for _, t := range pt {
			if count[t] > 0 {
				count[t]--
				same++
			}
		}
		if same == 0 {
			continue
		}
		prec := float64(same) / float64(len(pt))
		rec := float64(same) / float64(len(gt))
		best = max(best, 2*prec*rec/(prec+rec))
	}
	return best
}

// Contains is whether the normalised text holds a normalised gold answer
// as a run of whole words.
func Contains(text string, golds []string) bool {
	t := " " + NormalizeAnswer(text) + " "
	for _, g := range golds {
		if n := NormalizeAnswer(g); n != "" && strings.Contains(t, " "+n+" ") {
			return true
		}
	}
	return false
}

// PathHits says whether a gold answer is a node of the first path (top1)
// and of one of the first three (top3), nodes compared normalised.
func PathHits(paths []kb.Path, golds []string) (top1, top3 float64) {
	for i, p := range paths {
		if i >= 3 {
			break
		}
		for _, n := range p.Nodes {
			if ExactMatch(n, golds) == 1 {
				if i == 0 {
					top1 = 1
				}
				return top1, 1
			}
		}
	}
	return 0, 0
}
