// Package embed turns text into vectors. It declares the Embedder interface
// every provider implements (the built-in one here; Ollama's in package llm)
// and provides Hashed, Cairn's deterministic built-in embedder that needs no
// model: hashed TF features of stemmed words, word bigrams and character
// 3–5-grams (CJK: character bigrams and unigrams), L2-normalised.
package embed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/kb"
)

// Embedder makes vectors for texts; all vectors of one embedder have Info().Dim entries.
type Embedder interface {
	Info() kb.EmbedderInfo
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Hashed is the built-in embedder. The zero value is not usable; use NewHashed.
type Hashed struct {
	dim int
}

// DefaultDim is the built-in embedder's dimension. Measured on ../shared/eval
// (see docs/measurements.md, "Retrieval quality"): 1024 keeps vectors at 4 KiB per chunk.
const DefaultDim = 1024

// NewHashed returns the built-in embedder with dim buckets.
func NewHashed(dim int) *Hashed { return &Hashed{dim: dim} }

// Info names the embedder; the name changes whenever its features change, so
// a project knows when its vectors must be remade.
func (h *Hashed) Info() kb.EmbedderInfo {
	return kb.EmbedderInfo{Model: fmt.Sprintf("cairn-hash-v1-%d", h.dim), Dim: h.dim}
}

// Embed embeds each text.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.Vector(t)
	}
	return out, nil
}

// Feature weights: whole words carry the topic; bigrams add phrase sense;
// character n-grams give fuzzy matching across inflections and typos.
const (
	wordW        = 1.0
	bigramWeight = 0.5
	charWeight   = 0.3
	cjkUniWeight = 0.4
)

// Feature is one hashed feature of a text: its accumulated weight (base
// weight × occurrences) and the word it belongs to ("w:" key), so queries can
// scale a word's features together.
type Feature struct {
	TF   float64
	Word string
}

// Features returns the features of text before hashing.
func Features(text string) map[string]*Feature { return FeaturesOf(analyze.Tokens(text)) }

// FeaturesOf is Features of a text already cut into tokens (analyze.Tokens).
func FeaturesOf(toks []analyze.Token) map[string]*Feature {
	fs := map[string]*Feature{}
	add := func(key, word string, w float64) {
		f := fs[key]
		if f == nil {
			f = &Feature{Word: word}
			fs[key] = f
		}
		f.TF += w
	}
	prev := ""
	for _, t := range toks {
		if t.CJK {
			prev = ""
			for _, r := range t.Text {
				add("c:"+string(r), "c:"+string(r), cjkUniWeight)
			}
			if len([]rune(t.Text)) > 1 {
				for _, g := range analyze.Bigrams(t.Text) {
					add("w:"+g, "w:"+g, wordW)
				}
			}
			continue
		}
		if analyze.IsStop(t.Text) {
			prev = ""
			continue
		}
		stem := analyze.Stem(t.Text)
		word := "w:" + stem
		add(word, word, wordW)
		if prev != "" {
			add("b:"+prev+" "+stem, word, bigramWeight)
		}
		prev = stem
		if rs := []rune("#" + t.Text + "#"); len(rs) > 4 {
			grams := 0
			for n := 3; n <= 5; n++ {
				grams += max(0, len(rs)-n+1)
			}
			w := charWeight * 3 / float64(grams)
			for n := 3; n <= 5; n++ {
				for i := 0; i+n <= len(rs); i++ {
					add("g:"+string(rs[i:i+n]), word, w)
				}
			}
		}
	}
	return fs
}

// Vector hashes text's features into a unit vector (all zeros for text with
// no features). Weights are sublinear in frequency: 1 + ln(tf) past tf 1.
func (h *Hashed) Vector(text string) []float32 {
	tf, ok := hashedFeatures(text)
	if !ok {
		return h.hash(Features(text), nil)
	}
	v := make([]float64, h.dim)
	for x, w := range tf {
		addFeature(v, x, w, 1)
	}
	return normalise(v)
}

// QueryVector embeds a question with each word's features scaled by
// wordWeight(word) (e.g. IDF squared, which makes the cosine against
// unweighted document vectors rank like a TF-IDF dot product).
func (h *Hashed) QueryVector(text string, wordWeight func(word string) float64) []float32 {
	return h.hash(Features(text), wordWeight)
}

// QueryVectorOf is QueryVector of a text already cut into tokens.
func (h *Hashed) QueryVectorOf(toks []analyze.Token, wordWeight func(word string) float64) []float32 {
	return h.hash(FeaturesOf(toks), wordWeight)
}

func (h *Hashed) hash(features map[string]*Feature, wordWeight func(string) float64) []float32 {
	v := make([]float64, h.dim)
	for key, f := range features {
		scale := 1.0
		if wordWeight != nil {
			scale = wordWeight(f.Word)
		}
		addFeature(v, fnvAdd(fnvOffset, key), f.TF, scale)
	}
	return normalise(v)
}

// addFeature adds a feature whose key hashes to x and whose weight adds up
// to tf in the text: sublinear in frequency (1 + ln tf past 1), times
// scale, into bucket x mod len(v), with the sign of x's top bit.
func addFeature(v []float64, x uint64, tf, scale float64) {
	if tf > 1 {
		tf = 1 + math.Log(tf)
	}
	tf *= scale
	if i := int(x % uint64(len(v))); x>>63 == 1 {
		v[i] -= tf
	} else {
		v[i] += tf
	}
}

// Words returns the distinct word keys of text (what document frequencies
// count), in the order they first occur: the Word of every feature
// Features makes.
func Words(text string) []string { return WordsOf(analyze.Tokens(text)) }

// WordsOf is Words of a text already cut into tokens (analyze.Tokens).
func WordsOf(toks []analyze.Token) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, t := range toks {
		if t.CJK {
			for _, r := range t.Text {
				add("c:" + string(r))
			}
			if len([]rune(t.Text)) > 1 {
				for _, g := range analyze.Bigrams(t.Text) {
					add("w:" + g)
				}
			}
			continue
		}
		if !analyze.IsStop(t.Text) {
			add("w:" + analyze.Stem(t.Text))
		}
	}
	return out
}

// ChunkText is the text a stored chunk is embedded and counted as: its
// document's title, heading path, the header row of a table the chunk
// continues, and body, so passages inherit their context. It is the same
// text as search.EmbedText (TestChunkTextIsSearchEmbedText pins that).
func ChunkText(docTitle string, c kb.Chunk) string {
	if c.TableHeader != "" {
		return docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.TableHeader + "\n" + c.Text
	}
	return docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.Text
}

// ChunkWords lists the distinct words of a chunk as document frequencies
// count them: the Words of its ChunkText. The store counts them itself when
// a chunk is saved and takes them out when it is removed or replaced.
func ChunkWords(docTitle string, c kb.Chunk) []string { return Words(ChunkText(docTitle, c)) }

func normalise(v []float64) []float32 {
	var n float64
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out
}

var _ Embedder = (*Hashed)(nil)

// Describe is a one-line human description of an embedder.
func Describe(e Embedder) string {
	i := e.Info()
	return strings.TrimSpace(fmt.Sprintf("%s (%d dimensions)", i.Model, i.Dim))
}

// FNV-1a, 64 bits (hash/fnv's), written out so a feature's key can be
// hashed piece by piece, without building it as a string.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// hashedFeatures is Features keyed by the hash of each feature's key (what
// hash uses), without the strings: the features of a passage are made for
// every passage imported, and building their keys cost more than hashing
// them. ok is false for text that is not valid UTF-8, whose character
// n-grams Features spells with replacement characters.
func hashedFeatures(text string) (tf map[uint64]float64, ok bool) {
	if !utf8.ValidString(text) {
		return nil, false
	}
	tf = map[uint64]float64{}
	var (
		wPrefix = fnvAdd(fnvOffset, "w:")
		bPrefix = fnvAdd(fnvOffset, "b:")
		gPrefix = fnvAdd(fnvOffset, "g:")
		cPrefix = fnvAdd(fnvOffset, "c:")
	)
	var offs []int
	prev := ""
	for _, t := range analyze.Tokens(text) {
		if t.CJK {
			prev = ""
			for _, r := range t.Text {
				var b [utf8.UTFMax]byte
				n := utf8.EncodeRune(b[:], r)
				tf[fnvAdd(cPrefix, string(b[:n]))] += cjkUniWeight
			}
			if utf8.RuneCountInString(t.Text) > 1 {
				for _, g := range analyze.Bigrams(t.Text) {
					tf[fnvAdd(wPrefix, g)] += wordW
				}
			}
			continue
		}
		if analyze.IsStop(t.Text) {
			prev = ""
			continue
		}
		stem := analyze.Stem(t.Text)
		tf[fnvAdd(wPrefix, stem)] += wordW
		if prev != "" {
			tf[fnvAdd(fnvAdd(fnvAdd(bPrefix, prev), " "), stem)] += bigramWeight
		}
		prev = stem
		// character 3- to 5-grams of "#word#", by the byte offsets of
		// its runes
		marked := "#" + t.Text + "#"
		offs = offs[:0]
		for i := range marked {
			offs = append(offs, i)
		}
		runes := len(offs)
		offs = append(offs, len(marked))
		if runes <= 4 {
			continue
		}
		grams := 0
		for n := 3; n <= 5; n++ {
			grams += max(0, runes-n+1)
		}
		w := charWeight * 3 / float64(grams)
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= runes; i++ {
				tf[fnvAdd(gPrefix, marked[offs[i]:offs[i+n]])] += w
			}
		}
	}
	return tf, true
}
