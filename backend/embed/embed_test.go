package embed

import (
	"context"
	"math"
	"testing"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHashedIsDeterministicAndNormalised(t *testing.T) {
	h := NewHashed(DefaultDim)
	vs, err := h.Embed(context.Background(), []string{"Tax treaty benefits for students", "Tax treaty benefits for students", "", "民法典 民事主体"})
	if err != nil {
		t.Fatal(err)
	}
	if dot(vs[0], vs[1]) < 0.9999 {
		t.Fatal("same text, different vectors")
	}
	if n := math.Sqrt(dot(vs[0], vs[0])); math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm %v", n)
	}
	if dot(vs[2], vs[2]) != 0 {
		t.Fatal("empty text must embed to zeros")
	}
	if len(vs[3]) != DefaultDim || dot(vs[3], vs[3]) == 0 {
		t.Fatal("CJK text has no features")
	}
}

func TestSimilarTextsAreCloser(t *testing.T) {
	h := NewHashed(DefaultDim)
	a := h.Vector("The student claimed treaty benefits on the tax return.")
	b := h.Vector("Students claiming benefits under a tax treaty")
	c := h.Vector("The river flooded the valley after heavy rain.")
	if dot(a, b) <= dot(a, c) {
		t.Fatalf("related %.3f <= unrelated %.3f", dot(a, b), dot(a, c))
	}
}

func TestQueryWeightsRareWords(t *testing.T) {
	h := NewHashed(DefaultDim)
	doc := h.Vector("zanzibar")
	other := h.Vector("report")
	q := "zanzibar report"
	plain := h.Vector(q)
	weighted := h.QueryVector(q, func(w string) float64 {
		if w == "w:zanzibar" {
			return 10
		}
		return 1
	})
	if dot(weighted, doc)-dot(weighted, other) <= dot(plain, doc)-dot(plain, other) {
		t.Fatal("weighting a word up did not move the query towards it")
	}
}

func TestInfoNamesDimension(t *testing.T) {
	if i := NewHashed(256).Info(); i.Dim != 256 || i.Model != "cairn-hash-v1-256" {
		t.Fatalf("%+v", i)
	}
}
