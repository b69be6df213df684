package formula

import (
	"cairn/backend/lexicon"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// token is one piece of an expression: an operator or parenthesis (op),
// or a run of words or a number (text).
type token struct {
	op   byte
	text string
}

// wordOps are the operators written as words (the lexicon's
// arithmetic_words, in its order).
var wordOps = func() []wordOp {
	var out []wordOp
	for _, p := range lexicon.English().Pairs("arithmetic_words") {
		out = append(out, wordOp{words: strings.Fields(p[0]), op: p[1][0]})
	}
	return out
}()

type wordOp struct {
	words []string
	op    byte
}

// tokenize cuts an expression into tokens; bracketed notes ("[from the
// cash flow statement]") are left out.
func tokenize(s string) []token {
	var out []token
	var words []string
	flush := func() {
		if len(words) > 0 {
			out = append(out, token{text: strings.Join(words, " ")})
			words = nil
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == '[':
			j := i
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			i = j + 1
			continue
		case unicode.IsSpace(r):
			i++
			continue
		case r == '(' || r == ')' || r == '+' || r == '*' || r == '/' || r == '×' || r == '÷' || r == '−':
			flush()
			out = append(out, token{op: map[rune]byte{'(': '(', ')': ')', '+': '+', '*': '*', '/': '/', '×': '*', '÷': '/', '−': '-'}[r]})
			i++
			continue
		case r == '-' && (i == 0 || unicode.IsSpace(rs[i-1]) || rs[i-1] == ')') && (i+1 == len(rs) || unicode.IsSpace(rs[i+1]) || rs[i+1] == '('):
			flush()
			out = append(out, token{op: '-'})
			i++
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) && !strings.ContainsRune("()+*/×÷−[", rs[j]) {
			j++
		}
		w := string(rs[i:j])
		i = j
		// A word operator ends the words before it.
		matched := false
		for _, wo := range wordOps {
			if !strings.EqualFold(w, wo.words[0]) {
				continue
			}
			if len(wo.words) == 2 {
				k := i
				for k < len(rs) && unicode.IsSpace(rs[k]) {
					k++
				}
				e := k
				for e < len(rs) && unicode.IsLetter(rs[e]) {
					e++
				}
				if !strings.EqualFold(string(rs[k:e]), wo.words[1]) {
					continue
				}
				i = e
			}
			flush()
			out = append(out, token{op: wo.op})
			matched = true
			break
		}
		if !matched {
			words = append(words, w)
		}
	}
	flush()
	return out
}

var errSyntax = errors.New("formula: cannot read the expression")

// parseExpr reads an expression: operations with the usual precedence,
// parentheses, numbers and quantities.
func parseExpr(s string) (*Expr, error) {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), "."))
	p := &parser{toks: tokenize(s)}
	e, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, errSyntax
	}
	return e, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() byte {
	if p.i < len(p.toks) {
		return p.toks[p.i].op
	}
	return 0
}

func (p *parser) sum() (*Expr, error) {
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for p.i < len(p.toks) && (p.peek() == '+' || p.peek() == '-') {
		op := p.peek()
		p.i++
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		l = &Expr{Op: op, L: l, R: r}
	}
	return l, nil
}

func (p *parser) product() (*Expr, error) {
	l, err := p.leaf()
	if err != nil {
		return nil, err
	}
	for p.i < len(p.toks) && (p.peek() == '*' || p.peek() == '/') {
		op := p.peek()
		p.i++
		r, err := p.leaf()
		if err != nil {
			return nil, err
		}
		l = &Expr{Op: op, L: l, R: r}
	}
	return l, nil
}

func (p *parser) leaf() (*Expr, error) {
	if p.i >= len(p.toks) {
		return nil, errSyntax
	}
	t := p.toks[p.i]
	p.i++
	switch t.op {
	case '(':
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errSyntax
		}
		p.i++
		if e.Op != 0 {
			e.Paren = true
		}
		return e, nil
	case 0:
		return quantity(t.text)
	}
	return nil, errSyntax
}

// The forms a quantity takes in a definition.
var (
	yearPat    = `(?:FY\s?)?((?:19|20)\d\d)`
	averageRE  = regexp.MustCompile(`(?i)^(?:the\s+)?average\s+(?:of\s+)?(?:the\s+)?(.+?)\s+(?:between|from)\s+` + yearPat + `\s+(?:and|to)\s+` + yearPat + `$`)
	changeRE   = regexp.MustCompile(`(?i)^(?:the\s+)?change\s+in\s+(?:the\s+)?(.+?)\s+(?:between|from)\s+` + yearPat + `\s+(?:and|to)\s+` + yearPat + `$`)
	yearLeadRE = regexp.MustCompile(`(?i)^(?:the\s+)?` + yearPat + `\s+(.+)$`)
	yearTailRE = regexp.MustCompile(`(?i)^(?:the\s+)?(.+?)\s+(?:in|for|of)\s+` + yearPat + `$`)
	numberRE   = regexp.MustCompile(`^\d+(?:\.\d+)?$`)
)

// quantity reads one operand: a number, "average X between Y1 and Y2"
// (the mean of the two years), "change in X between Y1 and Y2" (the later
// year less the earlier), "FY2019 X" or "X in 2019", or a bare name.
func quantity(s string) (*Expr, error) {
	s = strings.TrimSpace(s)
	if numberRE.MatchString(s) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, errSyntax
		}
		return &Expr{Num: v}, nil
	}
	years := func(a, b string) (int, int) {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return min(x, y), max(x, y)
	}
	if m := averageRE.FindStringSubmatch(s); m != nil {
		a, b := years(m[2], m[3])
		sum := &Expr{Op: '+', L: &Expr{Name: name(m[1]), Year: a}, R: &Expr{Name: name(m[1]), Year: b}, Paren: true}
		return &Expr{Op: '/', L: sum, R: &Expr{Num: 2}, Paren: true}, nil
	}
	if m := changeRE.FindStringSubmatch(s); m != nil {
		a, b := years(m[2], m[3])
		return &Expr{Op: '-', L: &Expr{Name: name(m[1]), Year: b}, R: &Expr{Name: name(m[1]), Year: a}, Paren: true}, nil
	}
	if m := yearLeadRE.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		return &Expr{Name: name(m[2]), Year: y}, nil
	}
	if m := yearTailRE.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[2])
		return &Expr{Name: name(m[1]), Year: y}, nil
	}
	if n := name(s); n != "" {
		return &Expr{Name: n}, nil
	}
	return nil, errSyntax
}

// name trims a quantity's name ("the total assets" → "total assets").
func name(s string) string {
	s = strings.TrimSpace(s)
	for _, article := range lexicon.English().Words("articles") {
		lead := article + " "
		if len(s) > len(lead) && strings.EqualFold(s[:len(lead)], lead) {
			s = s[len(lead):]
		}
	}
	return strings.TrimSpace(s)
}
