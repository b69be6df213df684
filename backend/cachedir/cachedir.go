// Package cachedir is where Cairn keeps caches it can rebuild: one root,
// $CAIRN_CACHE_DIR if set, else <user cache dir>/cairn (~/.cache/cairn on
// Linux), else cairn-cache under the system temp folder. Each user of it has
// its own subfolder: wazero (the PDF engine's compiled WebAssembly), eval
// (evaluation projects), bench (benchmark corpora).
package cachedir

import (
	"os"
	"path/filepath"
)

// Root is the cache root.
func Root() string {
	if d := os.Getenv("CAIRN_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cairn")
	}
	return filepath.Join(os.TempDir(), "cairn-cache")
}

// Sub is the folder name under the root.
func Sub(name string) string { return filepath.Join(Root(), name) }
