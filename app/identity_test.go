package app

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"cairn/backend/kb"
)

func TestScopeIDs(t *testing.T) {
	got, err := scopeIDs([]int64{3, 1, 3, 2, 1})
	if err != nil || !reflect.DeepEqual(got, []int64{3, 1, 2}) {
		t.Fatalf("scopeIDs = %v, %v", got, err)
	}
	if got, err := scopeIDs(nil); err != nil || got != nil {
		t.Fatalf("no scope = %v, %v", got, err)
	}
	if _, err := scopeIDs([]int64{1, 0}); err == nil {
		t.Fatal("id 0 accepted")
	}
}

func TestSearchInPassesTheScope(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir()}
	a := newApp(f)
	if _, err := a.SearchIn("bridge", 5, []int64{2, 2, 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Search("bridge", 5); err != nil {
		t.Fatal(err)
	}
	if len(f.scopes) != 2 || !reflect.DeepEqual(f.scopes[0], []int64{2, 7}) || f.scopes[1] != nil {
		t.Fatalf("scopes passed: %v", f.scopes)
	}
	if _, err := a.SearchIn("bridge", 5, []int64{-1}); err == nil {
		t.Fatal("a negative id was accepted")
	}
}

// TestAskInAndRename imports the two notes of a two-hop question and the
// DMCA summary, asks within the notes (every citation from them, the answer's
// scope names them), renames one (citations show the new title), and resets
// it; over serve mode's HTTP too.
func TestAskInAndRename(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and indexes real documents")
	}
	a, _ := openReal(t)
	get := record(a)
	fix := filepath.Join("..", "frontend", "e2e", "fixtures", "twohop")
	res, err := a.ImportPaths([]string{
		filepath.Join(fix, "harbor-bridge.md"),
		filepath.Join(fix, "mara-okafor.md"),
		filepath.Join("..", "assets", "sample", "en-report-dmca-summary.pdf"),
	})
	if err != nil || len(res) != 3 {
		t.Fatalf("import: %v %+v", err, res)
	}
	for _, r := range res {
		if r.Status != kb.StatusOK {
			t.Fatalf("import: %+v", r)
		}
	}
	if s := waitIndexIdle(t, a); s.Done.Error != "" {
		t.Fatalf("index: %s", s.Done.Error)
	}
	bridge, mara, dmca := res[0].DocID, res[1].DocID, res[2].DocID
	notes := []int64{bridge, mara}

	const q = "Where was the designer of the Harbor Bridge born?"
	ans, err := a.AskIn(q, false, []int64{bridge, mara, bridge})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Citations) == 0 {
		t.Fatalf("no citations: %q", ans.Answer)
	}
	for _, c := range ans.Citations {
		if !slices.Contains(notes, c.DocID) {
			t.Errorf("citation [%d] from document %d, outside the scope %v", c.N, c.DocID, notes)
		}
	}
	if ans.Scope == nil || ans.Scope.Routed || !reflect.DeepEqual(ans.Scope.Docs, notes) || len(ans.Scope.Titles) != 2 {
		t.Fatalf("scope = %+v", ans.Scope)
	}
	// Within the DMCA summary alone, nothing from the notes.
	only, err := a.AskIn(q, false, []int64{dmca})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range only.Citations {
		if c.DocID != dmca {
			t.Errorf("scoped to the DMCA summary, cited document %d", c.DocID)
		}
	}
	if _, err := a.AskIn(q, false, []int64{99999}); err == nil {
		t.Error("a document not in the project was accepted as scope")
	}

	// Rename: the Library and the citations show the user's title.
	before, err := a.document(a.context(), bridge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.RenameDocument(bridge, "  \n "); err == nil {
		t.Error("a blank title was accepted")
	}
	if _, err := a.RenameDocument(99999, "X"); err == nil {
		t.Error("renaming a missing document succeeded")
	}
	n0 := len(get())
	d, err := a.RenameDocument(bridge, "  Vell estuary\nbridge notes ")
	if err != nil || d.Title != "Vell estuary bridge notes" || !d.IdentityEdited {
		t.Fatalf("rename: %v %+v", err, d)
	}
	changed := false
	for _, e := range get()[n0:] {
		changed = changed || e.name == EventLibraryChanged
	}
	if !changed {
		t.Error("rename emitted no library:changed")
	}
	ans, err = a.AskIn(q, false, notes)
	if err != nil {
		t.Fatal(err)
	}
	renamed := false
	for _, c := range ans.Citations {
		if c.DocID == bridge {
			renamed = true
			if c.DocTitle != "Vell estuary bridge notes" {
				t.Errorf("citation of the renamed document titled %q", c.DocTitle)
			}
		}
	}
	if !renamed {
		t.Errorf("no citation of the renamed document: %+v", ans.Citations)
	}
	d, err = a.EditDocumentIdentity(bridge, DocumentIdentity{Title: "Bridge notes", Organisation: "Vell Council", DocType: "Note", Period: "2011"})
	if err != nil || d.Organisation != "Vell Council" || d.DocType != "Note" || d.Period != "2011" {
		t.Fatalf("edit identity: %v %+v", err, d)
	}

	// Reset: Cairn's title again.
	d, err = a.ResetDocumentTitle(bridge)
	if err != nil || d.Title != before.Title || d.IdentityEdited {
		t.Fatalf("reset: %v %+v (was %q)", err, d, before.Title)
	}

	// Serve mode exposes the verbs with the same JSON.
	base, token := startServe(t, a)
	auth := map[string]string{tokenHeader: token}
	body, _ := json.Marshal([]any{bridge, "Over HTTP"})
	if resp, r := post(t, base, "App.RenameDocument", string(body), auth); resp.StatusCode != 200 || r.Error != "" {
		t.Fatalf("RenameDocument over HTTP: %d %+v", resp.StatusCode, r)
	}
	body, _ = json.Marshal([]any{q, false, notes})
	resp, r := post(t, base, "App.AskIn", string(body), auth)
	if resp.StatusCode != 200 || r.Error != "" {
		t.Fatalf("AskIn over HTTP: %d %+v", resp.StatusCode, r)
	}
	var got kb.Answer
	raw, _ := json.Marshal(r.Result)
	if err := json.Unmarshal(raw, &got); err != nil || got.Scope == nil || !reflect.DeepEqual(got.Scope.Docs, notes) || !slices.Contains(got.Scope.Titles, "Over HTTP") {
		t.Fatalf("AskIn over HTTP: %v scope %+v", err, got.Scope)
	}
}
