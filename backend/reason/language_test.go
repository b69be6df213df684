package reason_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/project"
	"cairn/backend/reason"
	"cairn/backend/testshared"
)

// languageCorpus holds passages written for the test: a made-up Chinese
// labour regulation, a made-up German works agreement and an English
// passage.
var languageCorpus = []evalset.Passage{
	{ID: "zh1", Title: "示例市劳动用工规定", Text: "第一条 为了规范示例市的劳动用工，制定本规定。第五条 劳动合同期限一年以上不满三年的，试用期不得超过两个月。第六条 用人单位应当按月足额支付劳动者工资。"},
	{ID: "zh2", Title: "示例市工资支付办法", Text: "第三条 工资应当以货币形式支付。第四条 用人单位不得克扣劳动者的工资。"},
	{ID: "de1", Title: "Betriebsvereinbarung der Beispiel GmbH", Text: "Die Probezeit in der Beispiel GmbH dauert höchstens vier Monate. Während der Probezeit kann das Arbeitsverhältnis mit einer Frist von zwei Wochen gekündigt werden. Der Urlaub beträgt dreißig Arbeitstage im Jahr."},
	{ID: "en1", Title: "Eastbrook Ferry", Text: "The Eastbrook Ferry crosses the Mill River. It was opened in 1911 by the Eastbrook Harbour Board."},
}

func answerTrace(t *testing.T, a kb.Answer) reason.Trace {
	t.Helper()
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

// The question's language picks the lexicon: a Chinese question gets a
// short answer and its cited sentence; a German one (no lexicon) the best
// supporting sentences, no short answer, and the reason.
func TestQuickLanguages(t *testing.T) {
	st := corpusStore(t, languageCorpus)
	r := newReasoner(st, llm.Offline{})
	ctx := context.Background()

	a, err := r.Quick(ctx, "劳动合同期限一年以上不满三年的，试用期不得超过多久？", nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := answerTrace(t, a)
	if a.Declined || a.Short == nil || a.Short.Text != "两个月" || len(a.Citations) == 0 || !strings.Contains(a.Citations[0].Text, "两个月") {
		t.Fatalf("Chinese: %q short %+v citations %+v", a.Answer, a.Short, a.Citations)
	}
	if tr.Language != "zh" || tr.NoShort != "" {
		t.Errorf("Chinese trace: language %q, no short %q", tr.Language, tr.NoShort)
	}
	checkProvenance(t, st, a)

	a, err = r.Quick(ctx, "Wie lange dauert die Probezeit in der Beispiel GmbH?", nil)
	if err != nil {
		t.Fatal(err)
	}
	tr = answerTrace(t, a)
	if a.Declined || a.Short != nil || len(a.Citations) == 0 || !strings.Contains(a.Citations[0].Text, "Probezeit") {
		t.Fatalf("German: %q short %+v citations %+v", a.Answer, a.Short, a.Citations)
	}
	if tr.Language != "de" || !strings.Contains(tr.NoShort, "German") || !strings.Contains(a.Answer, "German") {
		t.Errorf("German: the answer %q and trace (%q, %q) do not say why there is no short answer", a.Answer, tr.Language, tr.NoShort)
	}
	checkProvenance(t, st, a)

	a, err = r.Quick(ctx, "When was the Eastbrook Ferry opened?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr = answerTrace(t, a); a.Short == nil || a.Short.Text != "1911" || tr.Language != "en" {
		t.Errorf("English: %q short %+v language %q", a.Answer, a.Short, tr.Language)
	}
}

// A Chinese question on the Sample's civil code, and on the labour-law
// book of ../shared when present, answers with a cited sentence.
func TestQuickChineseDocuments(t *testing.T) {
	ctx := context.Background()
	p, err := project.Open(filepath.Join(t.TempDir(), "proj"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	docs := []string{"../../assets/sample/zh-civil-code.docx"}
	book := "../../../shared/docs/real/zh-book-labor-law-qa-191p.pdf"
	if _, err := os.Stat(book); err == nil {
		docs = append(docs, book)
	} else {
		testshared.Missing(t, "../shared/docs not present: the labour-law book is not read")
	}
	for _, d := range docs {
		path, _ := filepath.Abs(d)
		if res, err := p.Import(ctx, []string{path}, nil); err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
			t.Fatalf("import %s: %v %+v", d, err, res)
		}
	}
	r := reason.New(p.Retriever(), llm.Offline{})
	for _, c := range []struct{ q, short, cited string }{
		{"成年人是多少周岁以上的自然人？", "十八周岁", "十八周岁以上的自然人为成年人"},
		{"劳动者提前多少日以书面形式通知用人单位可以解除劳动合同？", "", "书面形式通知用人单位"},
	} {
		if c.short == "" && len(docs) < 2 {
			continue
		}
		a, err := r.Quick(ctx, c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		cited := false
		for _, ci := range a.Citations {
			cited = cited || strings.Contains(ci.Text, c.cited)
		}
		if a.Declined || !cited || c.short != "" && (a.Short == nil || a.Short.Text != c.short) {
			t.Errorf("%s: %q short %+v citations %+v", c.q, a.Answer, a.Short, a.Citations)
		}
		checkProvenance(t, p.Store(), a)
	}
}
