package embed

import (
	"hash/fnv"
	"math"
	"slices"
	"testing"
)

// fastCases are texts of every kind the built-in embedder meets: prose,
// statement rows, CJK, mixed scripts, accents, short words, stop words.
var fastCases = []string{
	"",
	"the of and",
	"Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420)",
	"The lighthouse keepers' cottages were restored in 1998–2001 by the Kerrow Trust.",
	"Zürich’s Straße — naïve café façades; résumé, coöperate",
	"劳动合同期限是多久？ 第十二条 劳动者在同一用人单位连续工作满十年以上的",
	"Cairn 读取 PDF 和 DOCX 文件, then answers questions 问题 offline.",
	"a ab abc abcd abcde abcdef ü üü üüü üüüü",
	"emoji 🙂 in text 🙂🙂 and tabs\tand\nnew lines",
	"U.S. GAAP EBITDA Q2'2023 FY2018 10-K 8-K",
}

// TestHashedFeaturesMatchFeatures: the vectors and word keys made without
// building feature strings are those Features and hash make.
func TestHashedFeaturesMatchFeatures(t *testing.T) {
	h := NewHashed(DefaultDim)
	for _, text := range fastCases {
		checkFast(t, h, text)
	}
}

// TestFNVAdd: the written-out FNV-1a is hash/fnv's, whole or piece by piece.
func TestFNVAdd(t *testing.T) {
	for _, text := range fastCases {
		h := fnv.New64a()
		h.Write([]byte("g:" + text))
		if got, want := fnvAdd(fnvAdd(fnvOffset, "g:"), text), h.Sum64(); got != want {
			t.Errorf("%q: %x, want %x", text, got, want)
		}
	}
}

func FuzzHashedFeatures(f *testing.F) {
	for _, c := range fastCases {
		f.Add(c)
	}
	h := NewHashed(64)
	f.Fuzz(func(t *testing.T, text string) { checkFast(t, h, text) })
}

func checkFast(t *testing.T, h *Hashed, text string) {
	t.Helper()
	want := h.hash(Features(text), nil)
	got := h.Vector(text)
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("%q: dimension %d is %v, want %v", text, i, got[i], want[i])
		}
	}
	var words []string
	seen := map[string]bool{}
	for _, f := range Features(text) {
		if !seen[f.Word] {
			seen[f.Word] = true
			words = append(words, f.Word)
		}
	}
	gotWords := Words(text)
	slices.Sort(words)
	sorted := slices.Clone(gotWords)
	slices.Sort(sorted)
	if !slices.Equal(sorted, words) {
		t.Fatalf("%q: words %v, want %v", text, sorted, words)
	}
	if len(gotWords) != len(sorted) {
		t.Fatalf("%q: words repeat: %v", text, gotWords)
	}
}
