package pdf

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	r, err := openLP(normalise(data), "")
	if err != nil {
		t.Fatal(err)
	}
	tree := enumeratePages(r, 100000)
	ds := newDocState()
	for i, p := range tree.pages {
		if i >= 6 && os.Getenv("DBG_ALL") == "" {
			break
		}
		res := walkPage(ds, p)
		txt := res.text()
		v := judge(&res, txt)
		fmt.Printf("=== page %d glyphs=%d undec=%d nofont=%d cover=%.2f err=%v verdict=%q\n", i+1, res.glyphs, res.undecodable, res.noFont, res.imageCover, res.err, v)
		if os.Getenv("DBG_TEXT") != "" {
			n := len(txt)
			if n > 1500 {
				n = 1500
			}
			fmt.Println(strings.ToValidUTF8(txt[:n], "?"))
		}
	}
}
