package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// lineWriter hands Serve's output to the test as it is written.
type lineWriter struct {
	mu  sync.Mutex
	buf strings.Builder
	ch  chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := regexp.MustCompile(`http://\S+`).FindString(w.buf.String()); m != "" {
		select {
		case w.ch <- m:
		default:
		}
	}
	return len(p), nil
}

var testDist = fstest.MapFS{
	"frontend/dist/index.html":     {Data: []byte("<!doctype html><html><head><title>t</title></head><body>x</body></html>")},
	"frontend/dist/assets/main.js": {Data: []byte("console.log(1)")},
}

// startServe runs Serve on a random loopback port and returns the printed URL.
func startServe(t *testing.T, a *App) (pageURL *url.URL, token string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &lineWriter{ch: make(chan string, 1)}
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, testDist, "127.0.0.1:0", w) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve returned %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not stop")
		}
	})
	select {
	case u := <-w.ch:
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return pu, pu.Query().Get("token")
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no URL printed")
	}
	return nil, ""
}

func post(t *testing.T, base *url.URL, method, body string, hdr map[string]string) (*http.Response, callReply) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+base.Host+"/api/"+method, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r callReply
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v in %q", method, err, b)
		}
	}
	return resp, r
}

func TestServeRefusesNonLoopback(t *testing.T) {
	a := newApp(&fakeBackend{})
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.10:8080", "example.com:80", "[::]:0"} {
		err := Serve(context.Background(), a, testDist, addr, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: err = %v, want a loopback refusal", addr, err)
		}
	}
}

func TestServeNeedsBuiltFrontend(t *testing.T) {
	err := Serve(context.Background(), newApp(&fakeBackend{}), fstest.MapFS{}, "", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not built") {
		t.Fatalf("err = %v", err)
	}
}

func TestServeAuthAndDispatch(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir()}
	a := newApp(f)
	base, token := startServe(t, a)
	if len(token) < 20 {
		t.Fatalf("token %q too short", token)
	}
	auth := map[string]string{tokenHeader: token}

	// Without, or with a wrong, token: 401 everywhere.
	for _, path := range []string{"/", "/assets/main.js", "/api/events"} {
		resp, err := http.Get("http://" + base.Host + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without token: %d", path, resp.StatusCode)
		}
	}
	if resp, _ := post(t, base, "App.Mode", "[]", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST without token: %d", resp.StatusCode)
	}
	if resp, _ := post(t, base, "App.Mode", "[]", map[string]string{tokenHeader: token + "x"}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST with a wrong token: %d", resp.StatusCode)
	}

	// The page URL sets the cookie and injects the config.
	resp, err := http.Get(base.String())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `window.__CAIRN_SERVE__={"token":"`+token+`"`) {
		t.Fatalf("page %d: %s", resp.StatusCode, page)
	}
	if !strings.Contains(string(page), "<head><script>") {
		t.Errorf("config not at the start of <head>: %s", page)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == tokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.Value != token {
		t.Fatalf("cookie = %+v", cookie)
	}

	// Calls with the header or the cookie.
	if resp, r := post(t, base, "App.Mode", "[]", auth); resp.StatusCode != 200 || r.Result != "offline" {
		t.Fatalf("Mode: %d %+v", resp.StatusCode, r)
	}
	if resp, r := post(t, base, "App.Mode", "[]", map[string]string{"Cookie": tokenCookie + "=" + token}); resp.StatusCode != 200 || r.Result != "offline" {
		t.Fatalf("Mode via cookie: %d %+v", resp.StatusCode, r)
	}
	if _, r := post(t, base, "App.Search", `["  deduction ", 3]`, auth); r.Error != "" || f.searched[0] != "deduction" || f.k[0] != 3 {
		t.Fatalf("Search: %+v %v %v", r, f.searched, f.k)
	}
	if _, r := post(t, base, "App.ImportPaths", `[[""]]`, auth); !strings.Contains(r.Error, "no files") {
		t.Fatalf("ImportPaths error: %+v", r)
	}
	if _, r := post(t, base, "App.RemoveDocuments", `[[7]]`, auth); r.Error != "" || f.removed[0] != 7 {
		t.Fatalf("RemoveDocuments: %+v", r)
	}
	if _, r := post(t, base, "App.ProjectInfo", `[]`, auth); r.Result.(map[string]any)["name"] != "Fake" {
		t.Fatalf("ProjectInfo: %+v", r)
	}

	// Errors of the transport itself.
	for _, c := range []struct {
		method, body string
		code         int
	}{
		{"App.Nope", "[]", 404},
		{"App.Search", `["x"]`, 400},
		{"App.Search", `[1, 2]`, 400},
		{"App.Search", `{"q":1}`, 400},
	} {
		if resp, _ := post(t, base, c.method, c.body, auth); resp.StatusCode != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.body, resp.StatusCode, c.code)
		}
	}
	req, _ := http.NewRequest("GET", "http://"+base.Host+"/api/App.Mode", nil)
	req.Header.Set(tokenHeader, token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET on a method: %v %v", resp.StatusCode, err)
	}

	// A foreign Host (DNS rebinding) or Origin is refused even with the token.
	req, _ = http.NewRequest("POST", "http://"+base.Host+"/api/App.Mode", strings.NewReader("[]"))
	req.Host = "evil.example:80"
	req.Header.Set(tokenHeader, token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %v %v", resp.StatusCode, err)
	}
	req, _ = http.NewRequest("POST", "http://"+base.Host+"/api/App.Mode", strings.NewReader("[]"))
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set(tokenHeader, token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: %v %v", resp.StatusCode, err)
	}

	// Static files with the token.
	req, _ = http.NewRequest("GET", "http://"+base.Host+"/assets/main.js", nil)
	req.Header.Set(tokenHeader, token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("static file: %v %v", resp.StatusCode, err)
	}
}

func TestServeEvents(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir()}
	a := newApp(f)
	base, token := startServe(t, a)
	req, _ := http.NewRequest("GET", "http://"+base.Host+"/api/events?token="+token, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Scan() // ": connected"

	go func() {
		if _, err := a.ImportPaths([]string{"/x/a.pdf"}); err != nil {
			t.Error(err)
		}
	}()
	var names []string
	for lines.Scan() && len(names) < 5 {
		line := lines.Text()
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		var m struct {
			Name string          `json:"name"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
			t.Fatal(err)
		}
		names = append(names, m.Name)
		if m.Name == EventImportProgress && !strings.Contains(string(m.Data), `"file":"/x/a.pdf"`) {
			t.Errorf("progress payload %s", m.Data)
		}
	}
	want := []string{EventImportStarted, EventImportProgress, EventImportProgress, EventImportDone, EventLibraryChanged}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("events %v, want %v", names, want)
	}
}

func TestServeRunsReadyHooks(t *testing.T) {
	a := newApp(&fakeBackend{dir: t.TempDir()})
	ran := make(chan struct{})
	a.onReady(func() { close(ran) })
	startServe(t, a)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("ready hook did not run")
	}
}
