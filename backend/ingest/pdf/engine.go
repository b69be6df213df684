package pdf

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"cairn/backend/cachedir"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
)

// engine is the process-wide PDFium (WebAssembly) instance. PDFium is
// single-threaded, so all calls go through mu.
type engine struct {
	mu   sync.Mutex
	pool pdfium.Pool
	inst pdfium.Pdfium
}

var (
	engineOnce  sync.Once
	engineVal   *engine
	engineErr   error
	engineStart atomic.Int64 // nanoseconds the start-up took
)

// CacheDir returns the directory of the on-disk wazero compilation cache,
// wazero under Cairn's cache root ($CAIRN_CACHE_DIR/wazero, by default
// ~/.cache/cairn/wazero; see package cachedir).
func CacheDir() string { return cachedir.Sub("wazero") }

// getEngine starts PDFium on first use. The first start in a fresh cache
// directory compiles the 4 MB wasm module (tens of seconds); later starts
// load the compiled code from the cache.
func getEngine() (*engine, error) {
	engineOnce.Do(func() {
		t0 := time.Now()
		engineVal, engineErr = startEngine()
		engineStart.Store(int64(time.Since(t0)))
	})
	return engineVal, engineErr
}

// EngineStartTime reports how long PDFium's start-up took in this process
// (zero if it has not been started).
func EngineStartTime() time.Duration {
	return time.Duration(engineStart.Load())
}

// startEngine compiles (or loads from the cache) and instantiates PDFium.
func startEngine() (e *engine, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, fmt.Errorf("pdfium start-up panicked: %v", r)
		}
	}()
	rc := wazero.NewRuntimeConfig()
	dir := CacheDir()
	if mkErr := os.MkdirAll(dir, 0o755); mkErr == nil {
		if cache, cErr := wazero.NewCompilationCacheWithDir(dir); cErr == nil {
			rc = rc.WithCompilationCache(cache)
		}
	}
	pool, err := webassembly.Init(webassembly.Config{
		MinIdle:       1,
		MaxIdle:       1,
		MaxTotal:      1,
		RuntimeConfig: rc,
		FSConfig:      wazero.NewFSConfig(), // no host file system access
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		return nil, fmt.Errorf("starting pdfium: %w", err)
	}
	inst, err := pool.GetInstance(5 * time.Minute)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("starting pdfium instance: %w", err)
	}
	return &engine{pool: pool, inst: inst}, nil
}
