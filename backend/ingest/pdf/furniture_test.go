package pdf

import (
	"fmt"
	"reflect"
	"testing"
)

// TestPlainFurniture: on pages read without geometry, a running header is
// taken out wherever the fallback engine put it (here after a footnote),
// its page counter becomes the label, and the first page keeps its title
// even though the running header repeats it.
func TestPlainFurniture(t *testing.T) {
	var pages []pageOut
	for i := 1; i <= 4; i++ {
		topic := []string{"", "liability", "circumvention", "exemptions", "vessel hulls"}[i]
		text := fmt.Sprintf("The Digital Millennium Copyright Act of 1998\nCopyright Office Summary December 1998 Page %d\nThe text on %s goes on here.", i, topic)
		if i == 1 {
			text = "Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998). 1\nCopyright Office Summary December 1998 Page 1\nTHE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998\nThe text on liability goes on here."
		}
		pages = append(pages, pageOut{paras: parasFromPlain(text)})
	}
	markFurniture(pages)
	for i, p := range pages {
		var kept []string
		for _, q := range p.paras {
			if !q.furniture {
				kept = append(kept, q.text)
			}
		}
		want := []string{fmt.Sprintf("The text on %s goes on here.", []string{"", "liability", "circumvention", "exemptions", "vessel hulls"}[i+1])}
		if i == 0 {
			want = []string{"Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998). 1\nTHE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998\nThe text on liability goes on here."}
		}
		if !reflect.DeepEqual(kept, want) || p.info.Label != fmt.Sprint(i+1) {
			t.Errorf("page %d: kept %q, label %q; furniture %q", i+1, kept, p.info.Label, p.info.Furniture)
		}
	}
}
