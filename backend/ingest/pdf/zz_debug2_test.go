package pdf

import (
	"fmt"
	"os"
	"testing"

	lp "github.com/ledongthuc/pdf"
)

func TestZZCMap(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	r, _ := openLP(normalise(data), "")
	tree := enumeratePages(r, 10)
	p := tree.pages[1]
	fonts := key(p.resources, "Font")
	for _, k := range fonts.Keys() {
		fd := key(fonts, k)
		tu := key(fd, "ToUnicode")
		if tu.Kind() != lp.Stream {
			continue
		}
		b, err := readStream(tu, 1<<20)
		n := len(b)
		if n > 800 {
			n = 800
		}
		fmt.Printf("font %s err=%v\n%s\n", k, err, b[:n])
		m := parseCMap(tu)
		fmt.Printf("spaces=%v chars=%d ranges=%d\n", m.spaces, len(m.chars), len(m.ranges))
	}
}
