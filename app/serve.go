package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"reflect"
	"strings"
	"time"

	"cairn/backend/store"
)

// Serve mode: the same App over loopback HTTP, for a browser and for the
// end-to-end tests.
//
//	GET  /?token=T            the UI (index.html with the serve config injected)
//	POST /api/App.<Method>    body: JSON array of the method's arguments;
//	                          reply: {"result": …} or {"error": "…", "code": "…"}
//	GET  /api/events          server-sent events: {"name": …, "data": …}
//	POST /upload              files dropped on the page (upload.go)
//	GET  /original/<doc id>   a document's stored original, with range requests (original.go)
//
// Every request must carry the per-run token: ?token= (the printed URL), the
// X-Cairn-Token header, or the cookie set when the page is first opened. The
// server listens on loopback only and checks the Host header, so other
// machines and DNS-rebinding pages cannot reach it.

const (
	tokenHeader = "X-Cairn-Token"
	tokenCookie = "cairn_token"
	maxBody     = 1 << 20
)

// Serve serves a's methods and the UI in assets (the embedded frontend; a
// tree holding index.html at its root or under frontend/dist) on addr, which
// must be a loopback address ("127.0.0.1:0" when empty). It prints the URL to
// open, token included, to out, and returns when ctx is cancelled.
func Serve(ctx context.Context, a *App, assets fs.FS, addr string, out io.Writer) error {
	dist, err := distRoot(assets)
	if err != nil {
		return err
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve address %q: %w", addr, err)
	}
	if !isLoopbackHost(host) {
		return fmt.Errorf("serve address %q is not a loopback address: Cairn serves only to this machine (use 127.0.0.1)", addr)
	}
	if host == "localhost" || host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	token, err := newToken()
	if err != nil {
		ln.Close()
		return err
	}
	h, err := newServer(a, dist, token)
	if err != nil {
		ln.Close()
		return err
	}

	a.setContext(ctx)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	fmt.Fprintf(out, "Cairn is serving %s\nOpen http://%s/?token=%s\n", a.cur().Dir(), ln.Addr(), token)
	a.runReady()

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	h.close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdownCtx)
	a.closeProject() // the project opened last, if the UI switched
	return nil
}

// distRoot finds the folder of assets that holds index.html.
func distRoot(assets fs.FS) (fs.FS, error) {
	if _, err := fs.Stat(assets, "index.html"); err == nil {
		return assets, nil
	}
	sub, err := fs.Sub(assets, "frontend/dist")
	if err == nil {
		if _, err := fs.Stat(sub, "index.html"); err == nil {
			return sub, nil
		}
	}
	return nil, errors.New("the frontend is not built (no index.html): run `make cli` or `cd frontend && npm run build`")
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make serve token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// server is the HTTP handler of serve mode.
type server struct {
	app     *App
	dist    fs.FS
	token   string
	methods map[string]reflect.Value
	files   http.Handler
	done    chan struct{}
}

func newServer(a *App, dist fs.FS, token string) (*server, error) {
	s := &server{
		app: a, dist: dist, token: token,
		methods: boundMethods(a),
		files:   http.FileServerFS(dist),
		done:    make(chan struct{}),
	}
	return s, nil
}

func (s *server) close() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
}

// boundMethods lists the exported methods of a, exactly the set Wails binds.
func boundMethods(a *App) map[string]reflect.Value {
	v := reflect.ValueOf(a)
	t := v.Type()
	m := make(map[string]reflect.Value, t.NumMethod())
	for i := 0; i < t.NumMethod(); i++ {
		m["App."+t.Method(i).Name] = v.Method(i)
	}
	return m
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if !isLoopbackHostHeader(r.Host) {
		http.Error(w, "forbidden host", http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host {
		http.Error(w, "forbidden origin", http.StatusForbidden)
		return
	}
	fromQuery, ok := s.authorised(r)
	if !ok {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, "Cairn: this address needs the token printed by `cairn serve`. Open the full URL it printed.\n")
		return
	}
	if fromQuery {
		http.SetCookie(w, &http.Cookie{
			Name: tokenCookie, Value: s.token, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode,
		})
	}
	switch {
	case r.URL.Path == "/api/events":
		s.events(w, r)
	case r.URL.Path == "/upload":
		s.upload(w, r) // upload.go
	case strings.HasPrefix(r.URL.Path, originalPrefix):
		s.app.serveOriginal(w, r) // original.go
	case strings.HasPrefix(r.URL.Path, "/api/"):
		s.call(w, r, strings.TrimPrefix(r.URL.Path, "/api/"))
	case r.URL.Path == "/" || r.URL.Path == "/index.html":
		s.index(w, r)
	default:
		s.files.ServeHTTP(w, r)
	}
}

// authorised checks the token; fromQuery says it came in the URL.
func (s *server) authorised(r *http.Request) (fromQuery, ok bool) {
	match := func(t string) bool {
		return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
	}
	if match(r.Header.Get(tokenHeader)) {
		return false, true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && match(c.Value) {
		return false, true
	}
	if match(r.URL.Query().Get("token")) {
		return true, true
	}
	return false, false
}

func isLoopbackHostHeader(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return isLoopbackHost(host)
}

// serveConfig is injected into index.html as window.__CAIRN_SERVE__; the
// frontend's API module then installs window.go.app.App and window.runtime
// over HTTP+SSE, so the generated Wails bindings work unchanged.
type serveConfig struct {
	Token   string   `json:"token"`
	Methods []string `json:"methods"`
}

func (s *server) index(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(s.dist, "index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	cfg := serveConfig{Token: s.token}
	for name := range s.methods {
		cfg.Methods = append(cfg.Methods, strings.TrimPrefix(name, "App."))
	}
	js, _ := json.Marshal(cfg)
	// json.Marshal escapes <, > and &, so the config cannot close the script.
	inject := []byte("<script>window.__CAIRN_SERVE__=" + string(js) + ";</script>")
	if i := bytes.Index(page, []byte("<head>")); i >= 0 {
		i += len("<head>")
		page = append(page[:i:i], append(inject, page[i:]...)...)
	} else {
		page = append(inject, page...)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

type callReply struct {
	Result any    `json:"result"`
	Error  string `json:"error,omitempty"`
	Code   string `json:"code,omitempty"` // ErrorCode (errors.go)
}

var errorType = reflect.TypeFor[error]()

func (s *server) call(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "use POST", http.StatusMethodNotAllowed)
		return
	}
	m, ok := s.methods[name]
	if !ok {
		http.Error(w, "no such method: "+name, http.StatusNotFound)
		return
	}
	var raw []json.RawMessage
	body := http.MaxBytesReader(w, r.Body, maxBody)
	if err := json.NewDecoder(body).Decode(&raw); err != nil {
		http.Error(w, "the body must be a JSON array of arguments: "+err.Error(), http.StatusBadRequest)
		return
	}
	mt := m.Type()
	if len(raw) != mt.NumIn() {
		http.Error(w, fmt.Sprintf("%s takes %d arguments, got %d", name, mt.NumIn(), len(raw)), http.StatusBadRequest)
		return
	}
	in := make([]reflect.Value, len(raw))
	for i := range raw {
		p := reflect.New(mt.In(i))
		if err := json.Unmarshal(raw[i], p.Interface()); err != nil {
			http.Error(w, fmt.Sprintf("argument %d of %s: %v", i+1, name, err), http.StatusBadRequest)
			return
		}
		in[i] = p.Elem()
	}

	var reply callReply
	func() {
		defer func() {
			if p := recover(); p != nil {
				reply = callReply{Error: fmt.Sprintf("internal error in %s: %v", name, p), Code: CodeInternal}
			}
		}()
		for i, o := range m.Call(in) {
			if mt.Out(i) == errorType {
				if !o.IsNil() {
					err := o.Interface().(error)
					err = store.Plain(err) // SQLite's bare codes in words
					reply.Error, reply.Code = err.Error(), ErrorCode(err)
				}
				continue
			}
			reply.Result = o.Interface()
		}
	}()
	if reply.Error != "" {
		reply.Result = nil
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(reply); err != nil {
		// The result could not be encoded; headers are gone, so say it in the body.
		fmt.Fprintf(w, `{"error":%q}`, "encode result: "+err.Error())
	}
}

type eventMsg struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

func (s *server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	queue := make(chan []byte, 256)
	cancel := s.app.subscribe(func(name string, data any) {
		b, err := json.Marshal(eventMsg{Name: name, Data: data})
		if err != nil {
			return
		}
		select {
		case queue <- b:
		default: // a client that does not read loses events rather than stalling imports
		}
	})
	defer cancel()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, ": connected\n\n")
	flusher.Flush()

	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case b := <-queue:
			fmt.Fprintf(w, "data: %s\n\n", b)
			flusher.Flush()
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}
