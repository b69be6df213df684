package pdf

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// CID-to-Unicode tables for the Adobe CJK character collections are large
// and not shipped with Cairn. When the system has them (poppler-data on
// Linux, Homebrew's poppler on macOS), the walker uses them to read CJK
// fonts that carry no ToUnicode map; otherwise such pages go to PDFium,
// which has its own tables. CAIRN_CID_TO_UNICODE_DIR names another
// directory to use instead ("off": use none).
var cidTableDirs = []string{
	"/usr/share/poppler/cidToUnicode",
	"/usr/local/share/poppler/cidToUnicode",
	"/opt/homebrew/share/poppler/cidToUnicode",
}

const maxCIDTable = 1 << 17 // CIDs per collection (Adobe-GB1 has ~30k)

var (
	cidTablesMu sync.Mutex
	cidTables   = map[string][]rune{} // "Adobe-Japan1" -> CID -> rune (nil: not installed)
)

// cidTable returns the CID->Unicode table of a collection such as
// "Adobe-Japan1", or nil if it is not installed.
func cidTable(collection string) []rune {
	switch collection {
	case "Adobe-Japan1", "Adobe-GB1", "Adobe-CNS1", "Adobe-Korea1":
	default:
		return nil
	}
	cidTablesMu.Lock()
	defer cidTablesMu.Unlock()
	if t, ok := cidTables[collection]; ok {
		return t
	}
	dirs := cidTableDirs
	if dir := os.Getenv("CAIRN_CID_TO_UNICODE_DIR"); dir != "" {
		dirs = []string{dir} // only this one; "off" disables the tables
	}
	var t []rune
	for _, dir := range dirs {
		if t = loadCIDTable(filepath.Join(dir, collection)); t != nil {
			break
		}
	}
	cidTables[collection] = t
	return t
}

// loadCIDTable reads a table with one hexadecimal code point per line,
// line n holding CID n ("0000" = unmapped).
func loadCIDTable(path string) []rune {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var t []rune
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(t) < maxCIDTable {
		v, err := strconv.ParseUint(strings.TrimSpace(sc.Text()), 16, 32)
		if err != nil || v > 0x10FFFF {
			v = 0
		}
		t = append(t, rune(v))
	}
	if len(t) < 100 {
		return nil
	}
	return t
}
