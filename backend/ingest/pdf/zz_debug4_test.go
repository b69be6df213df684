package pdf

import (
	"fmt"
	"os"
	"testing"

	"github.com/klippa-app/go-pdfium/requests"
)

func TestZZIum2(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	d, err := openIum(data, "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.e.inst.GetPageText(&requests.GetPageText{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: 0}}})
	fmt.Printf("%v %d\n%q\n", err, len([]rune(r.Text)), r.Text)
	s, _ := d.text(0)
	fmt.Println(len([]rune(s)))
}
