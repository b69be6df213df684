package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/project"
)

// TestAskOutcome: `cairn ask` tells its three outcomes apart, in --json
// (outcome) and in text (the heading over the passages and the line under
// the answer); evidence only is not a decline. The outcome is stored: the
// answers list reads it back.
func TestAskOutcome(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"mill.txt":   "Alderbrook mill\n\nThe Alderbrook mill was founded by Oren Vasek, a carpenter from the valley. It ground grain for the farms along the river for a century.\n",
		"ferry.txt":  "Alderbrook ferry\n\nThe Alderbrook ferry crosses the wide river below the town. The ferry carries carts, cattle and travellers between the banks, and the ferryman lives in the stone house by the landing.\n",
		"bakery.txt": "Alderbrook bakery\n\nThe bakery on the square sells rye bread and honey cakes. It opens before dawn on market days.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proj := filepath.Join(t.TempDir(), "town")
	if code, _, errOut := run(t, "", "import", "--offline", "--project", proj, dir); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	want := map[string]string{}
	for _, tc := range []struct {
		question, outcome, head, line string
	}{
		{"Who founded the Alderbrook mill?", kb.OutcomeAnswer, "Sources:", "outcome: answer)"},
		{"In what year did the Alderbrook ferry first cross the river?", kb.OutcomeEvidence, "Passages about the question:", "outcome: evidence only, no answer formed offline)"},
		{"What is the melting point of tungsten carbide?", kb.OutcomeDeclined, "Closest passages:", "outcome: declined, the documents do not answer it)"},
	} {
		code, out, errOut := run(t, "", "ask", "--offline", "--json", "--project", proj, tc.question)
		if code != 0 {
			t.Fatalf("ask --json: %d %s", code, errOut)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		want[tc.question] = tc.outcome
		var outcome string
		var declined bool
		json.Unmarshal(raw["outcome"], &outcome)
		json.Unmarshal(raw["declined"], &declined)
		if outcome != tc.outcome || declined != (tc.outcome == kb.OutcomeDeclined) {
			t.Errorf("%q --json: outcome %q declined %v, want %q", tc.question, outcome, declined, tc.outcome)
		}
		code, out, errOut = run(t, "", "ask", "--offline", "--project", proj, tc.question)
		if code != 0 {
			t.Fatalf("ask: %d %s", code, errOut)
		}
		if !strings.Contains(out, "\n"+tc.head+"\n") || !strings.Contains(out, tc.line) {
			t.Errorf("%q: text does not say %q and %q:\n%s", tc.question, tc.head, tc.line, out)
		}
		if tc.outcome == kb.OutcomeEvidence && !strings.HasPrefix(out, "Evidence only: the passages on p. 1 of ") {
			t.Errorf("%q: evidence answer does not say where the passages are:\n%s", tc.question, out)
		}
	}
	p, err := project.Open(proj)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	stored, err := p.Answers(context.Background())
	if err != nil || len(stored) != 6 {
		t.Fatalf("%d answers stored (%v)", len(stored), err)
	}
	for _, a := range stored {
		if a.Outcome != want[a.Question] {
			t.Errorf("stored %q: outcome %q, want %q", a.Question, a.Outcome, want[a.Question])
		}
	}
}
