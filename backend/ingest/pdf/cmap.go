package pdf

import (
	"sort"
	"unicode/utf16"

	lp "github.com/ledongthuc/pdf"
)

// codeRange is a codespace range: codes of n bytes whose bytes each lie
// between the corresponding bytes of lo and hi.
type codeRange struct {
	n      int
	lo, hi [4]byte
}

// rangeMap maps the codes lo..hi (all n bytes long) to consecutive values
// starting at dst (for ToUnicode: UTF-16BE text whose last unit increases;
// for CID maps: the CID in cid). If arr is set, each code has its own text.
type rangeMap struct {
	n      int
	lo, hi uint32
	dst    string
	arr    []string
	cid    uint32
}

// cmap is a parsed CMap: a ToUnicode map, or an embedded encoding CMap of
// a composite font (codes to CIDs).
type cmap struct {
	spaces  []codeRange
	chars   map[uint64]string // n<<32 | code -> UTF-16BE text
	ranges  []rangeMap        // sorted by lo
	cids    map[uint64]uint32 // n<<32 | code -> CID
	cidRngs []rangeMap
	wmode   int
}

// Caps on what one CMap may define.
const (
	maxCMapEntries = 1 << 20
	maxCMapOps     = 1 << 21
	maxCMapBytes   = 16 << 20
)

// codeKey packs a code and its byte length into one map key.
func codeKey(n int, code uint32) uint64 { return uint64(n)<<32 | uint64(code) }

// bytesCode packs up to 4 bytes big-endian.
func bytesCode(s string) uint32 {
	var c uint32
	for i := 0; i < len(s) && i < 4; i++ {
		c = c<<8 | uint32(s[i])
	}
	return c
}

// parseCMap reads a CMap stream (ToUnicode, or a composite font's
// embedded encoding). It tokenises the PostScript with the content-stream
// lexer and acts on the end* operators, taking every operand since the
// matching begin* (so wrong entry counts do not matter). Damaged CMaps
// yield whatever was parsed before the damage.
func parseCMap(stream lp.Value) *cmap {
	m := &cmap{chars: map[uint64]string{}, cids: map[uint64]uint32{}}
	data, _ := readStream(stream, maxCMapBytes)
	lx := lexer{data: data, maxOps: 2 * maxCMapEntries}
	entries := 0
	for ops := 0; ops < maxCMapOps && entries < maxCMapEntries; ops++ {
		op, args, ok, err := lx.next()
		if !ok || err != nil {
			break
		}
		switch op {
		case "endcodespacerange":
			for i := 0; i+1 < len(args); i += 2 {
				lo, hi := args[i].str, args[i+1].str
				if len(lo) >= 1 && len(lo) <= 4 && len(lo) == len(hi) {
					r := codeRange{n: len(lo)}
					copy(r.lo[:], lo)
					copy(r.hi[:], hi)
					m.spaces = append(m.spaces, r)
				}
			}
		case "endbfchar":
			for i := 0; i+1 < len(args); i += 2 {
				src := args[i].str
				if len(src) >= 1 && len(src) <= 4 && args[i+1].kind == kStr {
					m.chars[codeKey(len(src), bytesCode(src))] = args[i+1].str
					entries++
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(args); i += 3 {
				lo, hi, dst := args[i].str, args[i+1].str, args[i+2]
				if len(lo) < 1 || len(lo) > 4 || len(lo) != len(hi) {
					continue
				}
				r := rangeMap{n: len(lo), lo: bytesCode(lo), hi: bytesCode(hi)}
				if r.hi < r.lo {
					continue
				}
				switch dst.kind {
				case kStr:
					r.dst = dst.str
				case kArray:
					for _, e := range dst.arr {
						r.arr = append(r.arr, e.str)
					}
				default:
					continue
				}
				m.ranges = append(m.ranges, r)
				entries++
			}
		case "endcidchar":
			for i := 0; i+1 < len(args); i += 2 {
				src := args[i].str
				if len(src) >= 1 && len(src) <= 4 && args[i+1].kind == kNum {
					m.cids[codeKey(len(src), bytesCode(src))] = uint32(args[i+1].num)
					entries++
				}
			}
		case "endcidrange":
			for i := 0; i+2 < len(args); i += 3 {
				lo, hi := args[i].str, args[i+1].str
				if len(lo) >= 1 && len(lo) <= 4 && len(lo) == len(hi) && args[i+2].kind == kNum {
					m.cidRngs = append(m.cidRngs, rangeMap{n: len(lo), lo: bytesCode(lo), hi: bytesCode(hi), cid: uint32(args[i+2].num)})
					entries++
				}
			}
		case "def":
			if len(args) >= 2 && args[len(args)-2].kind == kName && args[len(args)-2].str == "WMode" {
				m.wmode = int(args[len(args)-1].num)
			}
		}
	}
	sort.SliceStable(m.ranges, func(i, j int) bool { return m.ranges[i].lo < m.ranges[j].lo })
	sort.SliceStable(m.cidRngs, func(i, j int) bool { return m.cidRngs[i].lo < m.cidRngs[j].lo })
	return m
}

// empty reports whether the CMap maps nothing.
func (m *cmap) empty() bool {
	return m == nil || len(m.chars) == 0 && len(m.ranges) == 0
}

// split returns the length of the code at the start of s according to the
// codespace ranges, or def when none matches.
func (m *cmap) split(s string, def int) int {
	if m == nil || len(m.spaces) == 0 {
		return min(def, len(s))
	}
	for n := 1; n <= 4 && n <= len(s); n++ {
		for _, r := range m.spaces {
			if r.n != n {
				continue
			}
			ok := true
			for i := 0; i < n; i++ {
				if s[i] < r.lo[i] || s[i] > r.hi[i] {
					ok = false
					break
				}
			}
			if ok {
				return n
			}
		}
	}
	return min(def, len(s))
}

// lookup returns the text for a code of n bytes.
func (m *cmap) lookup(n int, code uint32) (string, bool) {
	if m == nil {
		return "", false
	}
	if d, ok := m.chars[codeKey(n, code)]; ok {
		return utf16Text(d), true
	}
	r := findRange(m.ranges, n, code)
	if r == nil {
		return "", false
	}
	off := code - r.lo
	if r.arr != nil {
		if int(off) < len(r.arr) {
			return utf16Text(r.arr[off]), true
		}
		return "", false
	}
	return utf16Text(addToLast(r.dst, off)), true
}

// cid returns the CID of a code of an embedded encoding CMap.
func (m *cmap) cid(n int, code uint32) (uint32, bool) {
	if m == nil {
		return 0, false
	}
	if c, ok := m.cids[codeKey(n, code)]; ok {
		return c, true
	}
	if r := findRange(m.cidRngs, n, code); r != nil {
		return r.cid + code - r.lo, true
	}
	return 0, false
}

// findRange finds the range containing code among ranges sorted by lo.
func findRange(rs []rangeMap, n int, code uint32) *rangeMap {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].lo > code })
	// Ranges may overlap or differ in byte length; look back a little.
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		if rs[j].n == n && rs[j].lo <= code && code <= rs[j].hi {
			return &rs[j]
		}
	}
	return nil
}

// addToLast adds off to the last 16-bit unit of a UTF-16BE string (the
// bfrange rule), carrying into the byte before when needed.
func addToLast(s string, off uint32) string {
	if off == 0 || s == "" {
		return s
	}
	b := []byte(s)
	if len(b) == 1 {
		return string(rune(uint32(b[0]) + off))
	}
	v := uint32(b[len(b)-2])<<8 | uint32(b[len(b)-1])
	v += off
	b[len(b)-2], b[len(b)-1] = byte(v>>8), byte(v)
	return string(b)
}

// utf16Text decodes UTF-16BE bytes; a single byte is taken as a code point.
func utf16Text(s string) string {
	if len(s) == 1 {
		return string(rune(s[0]))
	}
	units := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		units = append(units, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return string(utf16.Decode(units))
}
