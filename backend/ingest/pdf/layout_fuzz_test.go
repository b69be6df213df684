package pdf

import (
	"math"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// FuzzLayout places glyphs at arbitrary, distinct grid positions, sizes,
// directions and weights (columns, tables, rotated runs, right-to-left
// letters) and checks the page analysis's one promise besides order:
// every letter and digit shown comes out exactly once.
func FuzzLayout(f *testing.F) {
	f.Add([]byte("two columns of text go here and here"), uint8(2))
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c"), uint8(7))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz0123456789"), uint8(31))
	f.Fuzz(func(t *testing.T, data []byte, seed uint8) {
		if len(data) > 4000 {
			return
		}
		letters := []rune("abcXYZ019אבגسلم漢字")
		var lo layout
		want := map[rune]int{}
		used := map[[2]int]bool{}
		x, y := 0, 0
		for i, b := range data {
			// Walk a grid: mostly along the line, sometimes a new line,
			// a jump to another column, or a rotated glyph.
			switch b % 11 {
			case 0:
				y -= 2
				x = int(seed%5) * 3
			case 1:
				x += 7
			case 2:
				y += 5
			default:
				x++
			}
			if used[[2]int{x, y}] {
				continue
			}
			used[[2]int{x, y}] = true
			r := letters[(int(b)+i)%len(letters)]
			size := 10.0 + float64(b%3)
			ux, uy := 1.0, 0.0
			if b%17 == 0 {
				ux, uy = 0, -1
			}
			g := glyph{text: string(r), x: float64(x) * 6, y: float64(y) * 7, dx: 5 * ux, dy: 5 * uy, ix: 5 * ux, iy: 5 * uy, ux: ux, uy: uy, size: size, weight: int(b % 7)}
			lo.add(g)
			want[r]++
		}
		got := map[rune]int{}
		for _, p := range lo.paragraphs() {
			for _, r := range p.text {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					got[r]++
				}
			}
			if math.IsNaN(p.size) || strings.ContainsRune(p.text, '\uFFFD') {
				t.Fatalf("bad paragraph %+v", p)
			}
		}
		if !sameCounts(want, got) {
			t.Fatalf("letters in %v, out %v", keys(want), keys(got))
		}
	})
}

func sameCounts(a, b map[rune]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[rune]int) string {
	var ks []string
	for k, v := range m {
		ks = append(ks, string(k)+":"+string(rune('0'+min(v, 9))))
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}
