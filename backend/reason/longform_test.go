package reason_test

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

// A question asking what a short form stands for is answered by the long
// form a passage writes beside it, even when the passage shares few of
// the question's other words; one whose short form no passage writes out
// is not answered by a long form.
func TestOfflineAnswerLongForm(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "labs", Title: "Research centres", Text: "Quiet River Test Laboratory (QRTL)\nQRTL at Millbrook, an autonomous society, is a centre for river research. It runs three flumes."},
		{ID: "plan", Title: "Annual plan", Text: "The plan funds QRTL and the coastal station. The budget grew by a tenth in the year."},
		{ID: "other", Title: "Staff", Text: "The staff of the coastal station count forty people, most of them engineers."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is QRTL stand for in this document?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Answer, "Quiet River Test Laboratory [1]") || a.Declined {
		t.Errorf("answer %q (declined %v)", a.Answer, a.Declined)
	}
	checkProvenance(t, st, a)
	if len(a.Citations) == 0 || !strings.Contains(a.Citations[0].Text, "Quiet River Test Laboratory (QRTL)") {
		t.Errorf("first citation %+v, want the line writing the long form", a.Citations)
	}
	a, err = r.Quick(context.Background(), "What does CSTN stand for?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Answer, "Quiet River") {
		t.Errorf("a short form no passage writes out got %q", a.Answer)
	}
}
