package llm

import (
	"net"
	"net/url"
	"os"
	"strings"
)

// DefaultHost is where Ollama listens unless told otherwise.
const DefaultHost = "http://127.0.0.1:11434"

// ResolveHost returns the Ollama base URL: flag (--ollama) if set, else
// OLLAMA_HOST, else DefaultHost. Both accept what Ollama itself accepts:
// a full URL, host:port, a bare host (port 11434) or 0.0.0.0 (the server's
// listen-everywhere address, reached here through loopback).
func ResolveHost(flag string) string {
	if h := strings.TrimSpace(flag); h != "" {
		return NormalizeHost(h)
	}
	if h := strings.TrimSpace(os.Getenv("OLLAMA_HOST")); h != "" {
		return NormalizeHost(h)
	}
	return DefaultHost
}

// NormalizeHost turns any accepted spelling of a host into a base URL
// (scheme://host:port, no trailing slash, path kept).
func NormalizeHost(h string) string {
	h = strings.TrimSpace(h)
	scheme := "http"
	switch {
	case strings.HasPrefix(h, "https://"):
		scheme, h = "https", h[len("https://"):]
	case strings.HasPrefix(h, "http://"):
		h = h[len("http://"):]
	}
	path := ""
	if i := strings.IndexByte(h, '/'); i >= 0 {
		h, path = h[:i], strings.TrimRight(h[i:], "/")
	}
	host, port, err := net.SplitHostPort(h)
	if err != nil {
		host, port = strings.Trim(h, "[]"), ""
	}
	if port == "" {
		port = "11434"
		if scheme == "https" {
			port = "443"
		}
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port), Path: path}
	return u.String()
}
