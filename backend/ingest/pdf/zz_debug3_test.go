package pdf

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestZZIum(t *testing.T) {
	f := os.Getenv("DBG_FILE")
	if f == "" {
		t.Skip()
	}
	pg, _ := strconv.Atoi(os.Getenv("DBG_PAGE"))
	data, _ := os.ReadFile(f)
	d, err := openIum(data, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.text(pg)
	fmt.Printf("%v\n%q\n", err, s)
}
