package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/search"
	"cairn/backend/testshared"
)

// TestTopicListFindsTheBridgePassage: on real 2WikiMultihopQA passages
// indexed offline, a bridge question ("the father of X") names only X; X's
// passage names the father, and the topic list ranks the father's own
// passage (titled by his name) near the top, and the fused top 5 holds
// both gold passages.
func TestTopicListFindsTheBridgePassage(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 300 passages")
	}
	root, _ := filepath.Abs("../../../shared/eval/2wikimultihopqa")
	if _, err := os.Stat(root); err != nil {
		testshared.Missing(t, "../shared/eval not present")
	}
	corpus, qs, err := evalset.LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var q evalset.Question
	for _, x := range qs {
		if x.Question == "Where was the place of burial of Ælfwine Of Deira's father?" {
			q = x
		}
	}
	if q.ID == "" {
		t.Skip("question not in this copy of the set")
	}
	gold := map[string]bool{}
	for _, id := range q.SupportingIDs {
		gold[id] = true
	}
	var sub []evalset.Passage
	var bridge string // the gold passage whose title the question does not name
	for i, p := range corpus {
		if gold[p.ID] || i < 300 {
			sub = append(sub, p)
		}
		if gold[p.ID] && !strings.Contains(kb.NormKey(q.Question), kb.NormKey(p.Title)) {
			bridge = p.ID
		}
	}
	if bridge == "" {
		t.Fatal("no bridge passage among the gold")
	}
	ctx := context.Background()
	p, err := evalset.BuildProject(ctx, t.TempDir(), sub, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ids := func(chunks []int64) []string {
		hits, err := p.Store().ChunkHits(ctx, chunks)
		if err != nil {
			t.Fatal(err)
		}
		out, err := evalset.PassageIDs(ctx, p.Store(), hits)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	s := &search.Searcher{Store: p.Store(), Embedder: p.Embedder(), Settings: search.DefaultSettings()}
	passHits, err := s.Search(ctx, q.Question, 5)
	if err != nil {
		t.Fatal(err)
	}
	passOnly, err := evalset.PassageIDs(ctx, p.Store(), passHits)
	if err != nil {
		t.Fatal(err)
	}
	r := retrieve.New(p.Store(), p.Embedder())
	res, err := r.Retrieve(ctx, question.New(q.Question), 5)
	if err != nil {
		t.Fatal(err)
	}
	var topic []string
	for _, l := range res.Lists {
		if l.Name == "topic" {
			topic = ids(l.IDs)
		}
	}
	full, err := evalset.PassageIDs(ctx, p.Store(), res.Hits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("passage search %v, topic list %v, fused %v, gold %v", passOnly, topic, full, q.SupportingIDs)
	if evalset.Recall(topic, []string{bridge}, 3) < 1 {
		t.Errorf("topic list's top 3 %v miss the bridge passage %s", topic, bridge)
	}
	if got := evalset.Recall(full, q.SupportingIDs, 5); got < 1 {
		t.Errorf("fused top 5 %v hold %.0f%% of the gold %v", full, 100*got, q.SupportingIDs)
	}
	if evalset.Recall(passOnly, q.SupportingIDs, 5) == 1 {
		t.Logf("note: passage search alone already finds both gold passages here")
	}
}
