package pdf

import (
	"errors"
	"strconv"
)

// objKind is the type of a content-stream operand.
type objKind uint8

const (
	kNull objKind = iota
	kNum
	kStr
	kName
	kArray
	kDict
	kBool
)

// operand is one value on a content stream's operand stack. Dictionaries
// (marked-content property lists, inline-image parameters) are parsed but
// their contents are kept only as a flat key/value list in arr.
type operand struct {
	kind objKind
	num  float64
	str  string // string bytes, or name without the slash
	arr  []operand
}

// Limits applied while tokenising one content stream.
const (
	maxOperandDepth = 32   // nested arrays/dicts in one operand
	maxOperands     = 4096 // operands waiting for an operator
	maxArrayLen     = 1 << 16
)

var errNesting = errors.New("content stream nests arrays or dictionaries too deeply")

// lexer tokenises a decoded content stream into operators with operands.
// It never recurses deeper than maxOperandDepth and skips inline image data.
type lexer struct {
	data []byte
	pos  int
	ops  []operand // operand stack of the pending operator
	// maxOps caps the operands waiting for an operator (0: maxOperands).
	maxOps int
}

// next returns the next operator and its operands (valid until the next
// call). ok is false at the end of the stream; err reports a fatal syntax
// problem (too deep nesting), after which the stream should be abandoned.
func (l *lexer) next() (op string, args []operand, ok bool, err error) {
	l.ops = l.ops[:0]
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return "", nil, false, nil
		}
		c := l.data[l.pos]
		if isRegular(c) && !isNumberStart(c) {
			kw := l.keyword()
			switch kw {
			case "true", "false":
				l.push(operand{kind: kBool, num: b2f(kw == "true")})
				continue
			case "null":
				l.push(operand{kind: kNull})
				continue
			case "BI":
				l.skipInlineImage()
				continue
			}
			return kw, l.ops, true, nil
		}
		v, err := l.operand(0)
		if err != nil {
			return "", nil, false, err
		}
		l.push(v)
	}
}

// push adds an operand, dropping the pending ones if there are absurdly many.
func (l *lexer) push(v operand) {
	limit := l.maxOps
	if limit == 0 {
		limit = maxOperands
	}
	if len(l.ops) >= limit {
		l.ops = l.ops[:0] // junk: no operator takes this many operands
	}
	l.ops = append(l.ops, v)
}

// operand parses one operand at the current position.
func (l *lexer) operand(depth int) (operand, error) {
	if depth > maxOperandDepth {
		return operand{}, errNesting
	}
	c := l.data[l.pos]
	switch {
	case c == '(':
		return operand{kind: kStr, str: l.literalString()}, nil
	case c == '<' && l.peek(1) == '<':
		l.pos += 2
		return l.collection(depth, '>', kDict)
	case c == '<':
		return operand{kind: kStr, str: l.hexString()}, nil
	case c == '[':
		l.pos++
		return l.collection(depth, ']', kArray)
	case c == '/':
		return operand{kind: kName, str: l.name()}, nil
	case isNumberStart(c):
		return operand{kind: kNum, num: l.number()}, nil
	case isRegular(c):
		kw := l.keyword() // a keyword inside an array or dict: keep going
		switch kw {
		case "true", "false":
			return operand{kind: kBool, num: b2f(kw == "true")}, nil
		}
		return operand{kind: kNull}, nil
	default: // stray delimiter such as ')', '>', ']', '{', '}'
		l.pos++
		return operand{kind: kNull}, nil
	}
}

// collection parses array or dictionary elements up to the closing
// delimiter (']' or '>>') or the end of the data.
func (l *lexer) collection(depth int, closer byte, kind objKind) (operand, error) {
	v := operand{kind: kind}
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return v, nil
		}
		c := l.data[l.pos]
		if c == closer {
			l.pos++
			if closer == '>' && l.peek(0) == '>' {
				l.pos++
			}
			return v, nil
		}
		if closer == ']' && c == '>' || closer == '>' && c == ']' {
			l.pos++ // mismatched closer: skip it
			continue
		}
		e, err := l.operand(depth + 1)
		if err != nil {
			return v, err
		}
		if len(v.arr) < maxArrayLen {
			v.arr = append(v.arr, e)
		}
	}
}

// peek returns the byte off positions ahead, or 0 at the end.
func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.data) {
		return l.data[l.pos+off]
	}
	return 0
}

// skipSpace skips white-space and comments.
func (l *lexer) skipSpace() {
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		if c == '%' {
			for l.pos < len(l.data) && l.data[l.pos] != '\n' && l.data[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		if !isSpace(c) {
			return
		}
		l.pos++
	}
}

// keyword reads a run of regular characters.
func (l *lexer) keyword() string {
	start := l.pos
	for l.pos < len(l.data) && isRegular(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == start { // cannot happen for a regular first byte; be safe
		l.pos++
	}
	return string(l.data[start:l.pos])
}

// number reads a numeric operand.
func (l *lexer) number() float64 {
	start := l.pos
	l.pos++
	for l.pos < len(l.data) && isRegular(l.data[l.pos]) {
		l.pos++
	}
	s := string(l.data[start:l.pos])
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		f = parseLooseNumber(s)
	}
	return f
}

// parseLooseNumber reads numbers such as "--5", "4.-2" or "1.2.3" the way
// tolerant PDF readers do: the longest valid prefix after the signs, negative
// if any sign is a minus.
func parseLooseNumber(s string) float64 {
	neg := false
	i := 0
	for i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = neg || s[i] == '-'
		i++
	}
	j := i
	dot := false
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && !dot) {
		dot = dot || s[j] == '.'
		j++
	}
	f, _ := strconv.ParseFloat(s[i:j], 64)
	if neg {
		f = -f
	}
	return f
}

// name reads a /Name, decoding #xx escapes.
func (l *lexer) name() string {
	l.pos++ // '/'
	var b []byte
	for l.pos < len(l.data) && isRegular(l.data[l.pos]) {
		c := l.data[l.pos]
		if c == '#' && l.pos+2 < len(l.data) {
			if h, ok := hexByte(l.data[l.pos+1], l.data[l.pos+2]); ok {
				b = append(b, h)
				l.pos += 3
				continue
			}
		}
		b = append(b, c)
		l.pos++
	}
	return string(b)
}

// literalString reads a (string) with nested parentheses and escapes.
func (l *lexer) literalString() string {
	l.pos++ // '('
	var b []byte
	depth := 1
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return string(b)
			}
		case '\\':
			if l.pos >= len(l.data) {
				return string(b)
			}
			e := l.data[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.peek(0) == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '7'; k++ {
						v = v*8 + int(l.data[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// hexString reads a <hex string>; an odd final digit counts as followed by 0.
func (l *lexer) hexString() string {
	l.pos++ // '<'
	var b []byte
	hi := -1
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		v, ok := hexVal(c)
		if !ok {
			continue
		}
		if hi < 0 {
			hi = v
		} else {
			b = append(b, byte(hi<<4|v))
			hi = -1
		}
	}
	if hi >= 0 {
		b = append(b, byte(hi<<4))
	}
	return string(b)
}

// skipInlineImage skips "BI <dict> ID <binary> EI". The binary data has no
// length of its own in most files, so it ends at the first "EI" that stands
// between white-space (or the end of the stream).
func (l *lexer) skipInlineImage() {
	for {
		l.skipSpace()
		if l.pos >= len(l.data) {
			return
		}
		if l.data[l.pos] == 'I' && l.peek(1) == 'D' && (l.pos+2 >= len(l.data) || !isRegular(l.data[l.pos+2])) {
			l.pos += 3
			break
		}
		if _, err := l.operand(0); err != nil {
			return
		}
	}
	for i := l.pos; i+1 < len(l.data); i++ {
		if l.data[i] == 'E' && l.data[i+1] == 'I' && i > 0 && isSpace(l.data[i-1]) &&
			(i+2 >= len(l.data) || isSpace(l.data[i+2]) || isDelimiter(l.data[i+2])) {
			l.pos = i + 2
			return
		}
	}
	l.pos = len(l.data)
}

// isSpace reports PDF white-space characters.
func isSpace(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

// isDelimiter reports PDF delimiter characters.
func isDelimiter(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// isRegular reports characters that can be part of a keyword or number.
func isRegular(c byte) bool { return !isSpace(c) && !isDelimiter(c) }

// isNumberStart reports characters that can start a number.
func isNumberStart(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.'
}

// hexVal decodes one hex digit.
func hexVal(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// hexByte decodes two hex digits.
func hexByte(a, b byte) (byte, bool) {
	x, ok1 := hexVal(a)
	y, ok2 := hexVal(b)
	return byte(x<<4 | y), ok1 && ok2
}

// b2f converts a boolean to 0 or 1.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
