package app

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"cairn/backend/kb"
)

// TestOriginalEndpoint: serve mode streams a document's stored original as
// bytes, whole or by range, behind the token; unknown ids are 404.
func TestOriginalEndpoint(t *testing.T) {
	a, _ := openReal(t)
	src := filepath.Join("..", "assets", "sample", "en-report-dmca-summary.pdf")
	res, err := a.ImportPaths([]string{src})
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
		t.Fatalf("import: %v %+v", err, res)
	}
	waitIndexIdle(t, a)
	want, _ := os.ReadFile(src)
	base, token := startServe(t, a)
	get := func(path string, hdr map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+base.Host+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	auth := map[string]string{tokenHeader: token}
	path := originalPrefix + strconv.FormatInt(res[0].DocID, 10)

	resp, body := get(path, auth)
	if resp.StatusCode != 200 || !bytes.Equal(body, want) || resp.Header.Get("Content-Type") != "application/pdf" || resp.Header.Get("Accept-Ranges") != "bytes" {
		t.Fatalf("whole file: %d, %d bytes of %d, type %q, ranges %q", resp.StatusCode, len(body), len(want), resp.Header.Get("Content-Type"), resp.Header.Get("Accept-Ranges"))
	}
	resp, body = get(path, map[string]string{tokenHeader: token, "Range": "bytes=100-199"})
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, want[100:200]) {
		t.Fatalf("range: %d, %d bytes", resp.StatusCode, len(body))
	}
	if resp, _ := get(path, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", resp.StatusCode)
	}
	for _, p := range []string{originalPrefix + "9999", originalPrefix + "0", originalPrefix + "x", originalPrefix + "../cairn.db"} {
		if resp, _ := get(p, auth); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
}
