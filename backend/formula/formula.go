// Package formula reads the arithmetic a question states for the figure
// it asks ("Turnover is defined as: FY2019 revenue / (average assets
// between FY2018 and FY2019)", "Define the current ratio as current assets
// divided by current liabilities") into an expression over named
// quantities in given years, and evaluates it with the figures a caller
// finds for them, keeping each operand for the work shown.
//
// Definitions may name one another ("C is defined as: A + B. A is defined
// as: …"); the one no other definition uses is the figure asked. The
// wording read is English: "is defined as", "define … as", the operators
// as signs or words ("divided by", "plus", "minus", "less", "times"),
// "average X between Y1 and Y2" and "change in X between Y1 and Y2".
// Pure functions; no vocabulary of any field.
package formula

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Expr is one node of a formula: a number, a quantity in a year, or an
// operation on two expressions.
type Expr struct {
	Op    byte // '+', '-', '*', '/' for an operation; 0 for a leaf
	L, R  *Expr
	Num   float64 // a number, when Op is 0 and Name is ""
	Name  string  // a quantity ("total assets"), when Op is 0
	Year  int     // its year; 0 for the year of the question
	Paren bool    // written in parentheses
}

// Formula is the figure a question asks and how the question says to
// compute it.
type Formula struct {
	Target string // the figure's name as defined ("return on assets")
	Expr   *Expr
}

// Operand is a quantity and the year it is needed for.
type Operand struct {
	Name string
	Year int
}

// defRE finds a definition: "X is defined as: E", "X here is defined as E",
// "X is calculated as E".
var defRE = regexp.MustCompile(`(?i)^(.{1,80}?)\s+(?:here\s+)?(?:is|are)\s+(?:here\s+)?(?:defined|calculated|computed)\s+as:?\s*(.+)$`)

// defineRE finds an instruction: "Define X as E", "Calculate X as E".
var defineRE = regexp.MustCompile(`(?i)^(?:define|calculate|compute)\s+(.{1,80}?)\s+as:?\s+(.+)$`)

// Parse finds the formula a question states; ok is false when it states
// none (or one whose expression cannot be read).
func Parse(question string) (Formula, bool) {
	type def struct {
		name string
		expr *Expr
	}
	var defs []def
	for _, s := range sentences(question) {
		var name, body string
		if m := defRE.FindStringSubmatch(s); m != nil {
			name, body = m[1], m[2]
		} else if m := defineRE.FindStringSubmatch(s); m != nil {
			name, body = m[1], m[2]
		} else {
			continue
		}
		name = cleanName(name)
		e, err := parseExpr(body)
		if err != nil || name == "" || e.Op == 0 {
			continue
		}
		defs = append(defs, def{name, e})
	}
	if len(defs) == 0 {
		return Formula{}, false
	}
	byName := map[string]*Expr{}
	for _, d := range defs {
		byName[strings.ToLower(d.name)] = d.expr
	}
	// Names used inside definitions are replaced by theirs; the root is
	// the definition no other one uses.
	used := map[string]bool{}
	for _, d := range defs {
		d.expr.walk(func(x *Expr) {
			if x.Op == 0 && x.Name != "" && byName[strings.ToLower(x.Name)] != nil {
				used[strings.ToLower(x.Name)] = true
			}
		})
	}
	// The figure asked may itself be arithmetic over a defined name ("what
	// is the 2022 adjusted profit less capital spending?").
	if m := askedRE.FindStringSubmatch(question); m != nil {
		asked := strings.TrimSpace(subjectRE.ReplaceAllString(m[1], ""))
		if e, err := parseExpr(asked); err == nil && e.Op != 0 {
			names := false
			e.walk(func(x *Expr) {
				if x.Op == 0 && byName[strings.ToLower(x.Name)] != nil {
					names = true
				}
			})
			if s := substitute(e, byName, 0); names && s != nil {
				return Formula{Target: asked, Expr: s}, true
			}
		}
	}
	for _, d := range defs {
		if used[strings.ToLower(d.name)] {
			continue
		}
		e := substitute(d.expr, byName, 0)
		if e == nil {
			return Formula{}, false
		}
		return Formula{Target: d.name, Expr: e}, true
	}
	return Formula{}, false
}

// askedRE finds the figure a question asks ("what is the X?").
var askedRE = regexp.MustCompile(`(?i)\bwhat\s+(?:is|was|are|were)\s+(?:the\s+|its\s+|their\s+)?([^?]+?)\s*\?`)

// subjectRE is the whose-figure tail of an asked figure ("… for Acme
// Corp", "… of the Group"): a preposition before a capitalised name.
var subjectRE = regexp.MustCompile(`\s+(?:for|of|at|in)\s+(?:the\s+)?\p{Lu}.*$`)

// maxDepth bounds how deep definitions may nest (and ends cycles).
const maxDepth = 6

// substitute copies e with each name another definition defines replaced
// by that definition (in the year the name was asked for, when given).
func substitute(e *Expr, defs map[string]*Expr, depth int) *Expr {
	if depth > maxDepth {
		return nil
	}
	if e.Op == 0 {
		if d := defs[strings.ToLower(e.Name)]; e.Name != "" && d != nil {
			s := substitute(d, defs, depth+1)
			if s == nil {
				return nil
			}
			if e.Year != 0 {
				s = s.inYear(e.Year)
			}
			s.Paren = true
			return s
		}
		c := *e
		return &c
	}
	l := substitute(e.L, defs, depth)
	r := substitute(e.R, defs, depth)
	if l == nil || r == nil {
		return nil
	}
	return &Expr{Op: e.Op, L: l, R: r, Paren: e.Paren}
}

// inYear sets the year of the quantities that have none.
func (e *Expr) inYear(y int) *Expr {
	e.walk(func(x *Expr) {
		if x.Op == 0 && x.Name != "" && x.Year == 0 {
			x.Year = y
		}
	})
	return e
}

func (e *Expr) walk(f func(*Expr)) {
	f(e)
	if e.Op != 0 {
		e.L.walk(f)
		e.R.walk(f)
	}
}

// Divides reports whether e divides by anything but a number (a ratio of
// quantities, whose result has no unit of its own).
func (e *Expr) Divides() bool {
	found := false
	e.walk(func(x *Expr) {
		if x.Op == '/' && !(x.R.Op == 0 && x.R.Name == "") {
			found = true
		}
	})
	return found
}

// Operands lists the quantities e needs, in order, once each; a year of 0
// is given year.
func (e *Expr) Operands(year int) []Operand {
	var out []Operand
	seen := map[Operand]bool{}
	e.walk(func(x *Expr) {
		if x.Op == 0 && x.Name != "" {
			o := Operand{x.Name, x.Year}
			if o.Year == 0 {
				o.Year = year
			}
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	})
	return out
}

// Eval computes e with the figures given for its operands (years of 0 are
// year); it fails on a missing figure or a division by zero.
func (e *Expr) Eval(year int, figures map[Operand]float64) (float64, error) {
	switch {
	case e.Op == 0 && e.Name == "":
		return e.Num, nil
	case e.Op == 0:
		o := Operand{e.Name, e.Year}
		if o.Year == 0 {
			o.Year = year
		}
		v, ok := figures[o]
		if !ok {
			return 0, fmt.Errorf("no figure for %s %d", o.Name, o.Year)
		}
		return v, nil
	}
	l, err := e.L.Eval(year, figures)
	if err != nil {
		return 0, err
	}
	r, err := e.R.Eval(year, figures)
	if err != nil {
		return 0, err
	}
	switch e.Op {
	case '+':
		return l + r, nil
	case '-':
		return l - r, nil
	case '*':
		return l * r, nil
	}
	if r == 0 {
		return 0, fmt.Errorf("division by zero")
	}
	return l / r, nil
}

// Text writes e with each quantity's name, year and figure, as the work
// shown ("revenue 2019 6,489 / ((assets 2018 253 + assets 2019 253) / 2)");
// show prints a figure.
func (e *Expr) Text(year int, figures map[Operand]float64, show func(float64) string) string {
	var s string
	switch {
	case e.Op == 0 && e.Name == "":
		s = show(e.Num)
	case e.Op == 0:
		o := Operand{e.Name, e.Year}
		if o.Year == 0 {
			o.Year = year
		}
		s = o.Name
		if o.Year != 0 {
			s += " " + strconv.Itoa(o.Year)
		}
		if v, ok := figures[o]; ok {
			s += " " + show(v)
		}
	default:
		s = e.L.Text(year, figures, show) + " " + opSign(e.Op) + " " + e.R.Text(year, figures, show)
	}
	if e.Paren && e.Op != 0 {
		s = "(" + s + ")"
	}
	return s
}

func opSign(op byte) string {
	switch op {
	case '-':
		return "−"
	case '*':
		return "×"
	}
	return string(op)
}

// sentences cuts text at ".", "?", "!" followed by a space (a period
// inside a number or an abbreviation followed by a lower-case word stays).
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' && c != '\n' {
			continue
		}
		if c != '\n' && i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\n' {
			continue
		}
		if c == '.' && i+2 < len(text) && text[i+1] == ' ' && text[i+2] >= 'a' && text[i+2] <= 'z' {
			continue
		}
		if s := strings.TrimSpace(text[start:i]); s != "" {
			out = append(out, s)
		}
		start = i + 1
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// leadRE is what may stand before a definition's name in its sentence
// ("Here, ", "The ", "Note that").
var leadRE = regexp.MustCompile(`(?i)^(?:(?:here|also|note that|where|and|then|so)\s*,?\s+)*(?:the|a|an|its)\s+`)

// cleanName trims a defined name to the name itself.
func cleanName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, ",:;"); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	s = leadRE.ReplaceAllString(s, "")
	s = strings.TrimSpace(strings.TrimSuffix(s, " here"))
	return s
}
