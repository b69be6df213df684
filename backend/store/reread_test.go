package store

import (
	"context"
	"reflect"
	"testing"

	"cairn/backend/kb"
)

// TestOutdatedDocsAndPageLayout: saved content records the reader version
// (a document an older reader produced is listed for re-reading, by kind)
// and a page's layout survives the round trip.
func TestOutdatedDocsAndPageLayout(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	id := addDoc(t, s, "a", "page one")
	ids, err := s.OutdatedDocs(ctx, "txt")
	if err != nil || len(ids) != 0 {
		t.Fatalf("fresh document listed as outdated: %v %v", ids, err)
	}
	if _, err := s.db.Exec("UPDATE documents SET reader = 0 WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.OutdatedDocs(ctx, "pdf"); len(ids) != 0 {
		t.Errorf("other kinds listed: %v", ids)
	}
	if ids, _ := s.OutdatedDocs(ctx, "txt"); !reflect.DeepEqual(ids, []int64{id}) {
		t.Errorf("outdated = %v, want [%d]", ids, id)
	}

	box := [4]float64{1, 2, 3, 4}
	l := kb.PageLayout{Label: "iv", Furniture: []string{"Page 4"}, Width: 612, Height: 792,
		Blocks: []kb.PageBlock{{Kind: "heading", Level: 2, Start: 0, End: 4, Box: &box}}}
	enc, err := encodePageLayout(l)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodePageLayout(enc)
	if err != nil || !reflect.DeepEqual(got, l) {
		t.Errorf("layout round trip: %+v, %v", got, err)
	}
	if enc, _ := encodePageLayout(kb.PageLayout{}); enc != "" {
		t.Errorf("empty layout encoded as %q", enc)
	}
}
