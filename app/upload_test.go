package app

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/project"
)

type upFile struct {
	name string
	data []byte
}

func multipartBody(t *testing.T, files []upFile) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("note", "not a file") // plain fields are skipped
	for _, f := range files {
		w, err := mw.CreateFormFile("file", f.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.data)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func upload(t *testing.T, base *url.URL, token string, files []upFile) (int, callReply) {
	t.Helper()
	body, ct := multipartBody(t, files)
	req, _ := http.NewRequest("POST", "http://"+base.Host+"/upload", body)
	req.Header.Set("Content-Type", ct)
	if token != "" {
		req.Header.Set(tokenHeader, token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r callReply
	json.Unmarshal(b, &r)
	return resp.StatusCode, r
}

func uploadLeftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, uploadDirPrefix+"*"))
	return m
}

func TestUploadImportsDroppedFiles(t *testing.T) {
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := newApp(projectBackend{p})
	base, token := startServe(t, a)
	events := record(a)

	pdf, err := os.ReadFile("../assets/sample/en-report-dmca-summary.pdf")
	if err != nil {
		t.Fatal(err)
	}
	md := []byte("# Field notes\n\nThe cairn on the ridge marks the old trail to the summit.\n")

	// Without the token: refused, nothing written.
	if code, _ := upload(t, base, "", []upFile{{"a.pdf", pdf}}); code != http.StatusUnauthorized {
		t.Fatalf("no token: %d", code)
	}
	// A GET, a non-multipart body, a name climbing out: refused.
	if resp, err := http.Get("http://" + base.Host + "/upload?token=" + token); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %v %v", resp.StatusCode, err)
	}
	req, _ := http.NewRequest("POST", "http://"+base.Host+"/upload", strings.NewReader("{}"))
	req.Header.Set(tokenHeader, token)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("json body: %v %v", resp.StatusCode, err)
	}
	if code, r := upload(t, base, token, []upFile{{"../../etc/x.pdf", pdf}}); code != http.StatusBadRequest || !strings.Contains(r.Error, "climbs") {
		t.Fatalf("climbing name: %d %+v", code, r)
	}

	// A file and a dropped folder (relative names) import as one batch.
	code, r := upload(t, base, token, []upFile{
		{"en-report-dmca-summary.pdf", pdf},
		{"notes/trail/field-notes.md", md},
	})
	if code != http.StatusOK || r.Error != "" {
		t.Fatalf("upload: %d %+v", code, r)
	}
	b, _ := json.Marshal(r.Result)
	var results []project.ImportResult
	json.Unmarshal(b, &results)
	if len(results) != 2 {
		t.Fatalf("results %+v", results)
	}
	for _, res := range results {
		if res.Status != kb.StatusOK || res.Chunks == 0 {
			t.Errorf("%s: %s %s", res.File, res.Status, res.Error)
		}
	}
	docs, _ := p.Documents(a.context())
	got := map[string]bool{}
	for _, d := range docs {
		got[d.FileName] = true
	}
	if len(docs) != 2 || !got["en-report-dmca-summary.pdf"] || !got["field-notes.md"] {
		t.Fatalf("documents %v", got)
	}
	if hits, _ := p.Search(a.context(), "cairn ridge trail", 3); len(hits) == 0 {
		t.Fatal("the uploaded note is not searchable")
	}
	if left := uploadLeftovers(t, p.Dir()); len(left) != 0 {
		t.Fatalf("temporary upload folders left: %v", left)
	}
	var names []string
	for _, e := range events() {
		names = append(names, e.name)
	}
	if !strings.Contains(strings.Join(names, " "), EventImportStarted) || !strings.Contains(strings.Join(names, " "), EventImportDone) {
		t.Fatalf("events %v", names)
	}

	// Over the cap: 413, nothing imported, nothing left behind.
	old := uploadLimit
	uploadLimit = 64 << 10
	defer func() { uploadLimit = old }()
	if code, r := upload(t, base, token, []upFile{{"big.pdf", pdf}}); code != http.StatusRequestEntityTooLarge || !strings.Contains(r.Error, "too large") {
		t.Fatalf("over the cap: %d %+v (pdf is %d bytes)", code, r, len(pdf))
	}
	if docs, _ := p.Documents(a.context()); len(docs) != 2 {
		t.Fatalf("%d documents after a refused upload", len(docs))
	}
	if left := uploadLeftovers(t, p.Dir()); len(left) != 0 {
		t.Fatalf("temporary upload folders left: %v", left)
	}
}

func TestUploadPath(t *testing.T) {
	for in, want := range map[string]string{
		"a.pdf":             "a.pdf",
		"dir/sub/a.pdf":     "dir/sub/a.pdf",
		`C\Users\me\a.pdf`:  "C/Users/me/a.pdf",
		"./x//y.md":         "x/y.md",
		"../a.pdf":          "",
		"a/../../b":         "",
		"":                  "",
		"/":                 "",
		"C:/evil.pdf":       "",
		"ok/na\x00me.pdf":   "",
		"/abs/path/doc.txt": "abs/path/doc.txt",
	} {
		got, err := uploadPath(in)
		if want == "" {
			if err == nil {
				t.Errorf("uploadPath(%q) = %q, want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("uploadPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
