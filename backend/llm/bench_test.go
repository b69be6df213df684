package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
)

// BenchmarkChatJSONFake measures one ChatJSON call (num_ctx sizing, request
// building, HTTP round trip, think/fence stripping, schema validation)
// against the fake server answering at once. BenchmarkRawChatFake is the
// same HTTP exchange with nothing of the layer (one POST, decode), so the
// difference is the layer's own cost.
//
//	go test ./backend/llm -run XXX -bench 'ChatFake|ChatJSONFake' -benchmem
func BenchmarkChatJSONFake(b *testing.B) {
	srv := fakeollama.New()
	defer srv.Close()
	srv.On(fakeollama.Rule{Reply: goodReply})
	o, _ := llm.NewOllama(llm.OllamaConfig{Host: srv.URL()})
	req := llm.JSONRequest{Schema: extractSchema, Messages: msgs("Form 1040-NR is filed with the Internal Revenue Service.")}
	ctx := context.Background()
	if _, err := o.ChatJSON(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := o.ChatJSON(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawChatFake(b *testing.B) {
	srv := fakeollama.New()
	defer srv.Close()
	srv.On(fakeollama.Rule{Reply: goodReply})
	body, _ := json.Marshal(map[string]any{"model": llm.DefaultChatModel, "stream": false, "format": extractSchema.Schema,
		"messages": msgs("Form 1040-NR is filed with the Internal Revenue Service."), "options": map[string]any{"num_ctx": 8192, "temperature": 0}})
	client := &http.Client{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := client.Post(srv.URL()+"/api/chat", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var v struct {
			Message struct{ Content string }
		}
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
