package cachedir

import (
	"path/filepath"
	"testing"
)

func TestRootFromEnvironment(t *testing.T) {
	t.Setenv("CAIRN_CACHE_DIR", "/x/cache")
	if Root() != "/x/cache" || Sub("wazero") != filepath.Join("/x/cache", "wazero") {
		t.Fatalf("Root %q, Sub %q", Root(), Sub("wazero"))
	}
	t.Setenv("CAIRN_CACHE_DIR", "")
	if filepath.Base(Root()) != "cairn" && filepath.Base(Root()) != "cairn-cache" {
		t.Fatalf("default root %q", Root())
	}
}
