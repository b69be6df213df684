package project

import (
	"slices"
	"testing"
)

// TestIndexStagesInOrder: the stages run reread → ocr → graph → mind maps →
// fusion (re-read passages come before what is built from passages; the
// mind maps' model mode organises the graph's facts; fusion needs the maps).
func TestIndexStagesInOrder(t *testing.T) {
	if got := IndexStages(); !slices.Equal(got, []string{"reread", "ocr", "graph", "mindmap", "fusion"}) {
		t.Fatalf("stages %v", got)
	}
}
