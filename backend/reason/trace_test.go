package reason

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeTrace(t *testing.T) {
	for _, c := range []struct {
		name, in, err string
	}{
		{"minimal", `{"mode":"quick","answer_by":"extractive"}`, ""},
		{"older version with unknown fields", `{"mode":"deep","future_field":[1,2],"rounds":[{"question":"q","steps":[{"id":1,"op":"retrieval"}]}]}`, ""},
		{"not an object", `[1,2]`, "answer trace"},
		{"truncated", `{"mode":"qu`, "answer trace"},
		{"two objects", `{"mode":"quick"} {"mode":"deep"}`, "extra data"},
		{"negative step id", `{"rounds":[{"steps":[{"id":-1}]}]}`, "negative id"},
		{"empty", ``, "answer trace"},
	} {
		_, err := DecodeTrace([]byte(c.in))
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.err)
		}
	}
}

// A trace survives its own round trip: what an answer stores, the reader reads.
func TestDecodeTraceRoundTrip(t *testing.T) {
	in := Trace{Mode: "deep", AnswerBy: "model", Timings: map[string]int64{"retrieve": 12},
		Rounds: []RoundTrace{{Question: "q", Steps: []StepTrace{{ID: 1, Op: "retrieval", By: "graph", Values: []string{"Oswiu"}}}, Answered: true}}}
	raw, _ := json.Marshal(in)
	out, err := DecodeTrace(raw)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(out)
	if string(raw) != string(again) {
		t.Fatalf("round trip changed the trace:\n%s\n%s", raw, again)
	}
}

func FuzzDecodeTrace(f *testing.F) {
	f.Add([]byte(`{"mode":"quick","answer_by":"extractive","support":{"coverage":0.5}}`))
	f.Add([]byte(`{"mode":"deep","plan":{"steps":[{"id":1,"op":"retrieval"}]},"rounds":[{"steps":[{"id":1}]}]}`))
	f.Add([]byte(`{"subgraph":{"entities":[{"id":1,"name":"x","aliases":null,"mentions":[]}],"relations":[]}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		tr, err := DecodeTrace(raw)
		if err != nil {
			return
		}
		// Whatever decodes must encode again and decode to the same thing.
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatalf("decoded trace does not encode: %v", err)
		}
		if _, err := DecodeTrace(b); err != nil {
			t.Fatalf("re-encoded trace does not decode: %v", err)
		}
	})
}
