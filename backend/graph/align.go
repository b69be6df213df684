// Package graph assembles the knowledge graph from per-chunk extractions:
// entity alignment (which existing entity a new mention is), aliases read
// from descriptions, the export formats (JSON, GraphML) and a content view
// used to compare graphs. Everything here is a pure function of its inputs;
// the database side lives in backend/store and the driving loop in
// backend/jobs. Path and ranking algorithms are in graph/walk.
package graph

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// Mention is a new entity as one chunk names it.
type Mention struct {
	Name, Type, Description string
	Aliases                 []string
	// TypeWeight is the strength of the chunk's evidence for Type (0:
	// unknown, as from a model).
	TypeWeight float64
}

// weakType is the evidence below which a mention's type yields to the one
// entity its name is known by (an acronym's prior, a name's shape).
const weakType = 1.0

// Candidate is an existing entity it might be: known by one of the same
// normalised names (ByName) or close by vector.
type Candidate struct {
	Entity kb.Entity
	ByName bool
}

// MergeThreshold is the cosine similarity of name vectors above which two
// entities of the same type are merged, provided their names also pass
// SimilarNames. Conservative: merging two different things is worse than
// keeping one thing twice.
const MergeThreshold = 0.92

// Align returns the id of the candidate the mention is, or 0 for a new
// entity. Rules, in order:
//  1. a candidate known by the mention's name or one of its aliases, of the
//     same type (or either side untyped, "other"): the same entity. Aliases
//     are how cross-lingual names meet ("北京" with alias "Beijing").
//     A name that defines an abbreviation ("… Act (DMCA)") is the entity
//     known by the abbreviation.
//     A mention whose type rests on weak evidence (TypeWeight under
//     weakType) joins the one candidate known by its name, of any type.
//  2. a candidate of the same type whose name vector is within
//     MergeThreshold and whose name passes SimilarNames ("Internal Revenue
//     Service" / "Internal Revenue Services"); never across types, never
//     when the numbers in the names differ ("Form 1040" / "Form 1040-NR").
//
// vec embeds a name (the built-in hashed embedder).
func Align(m Mention, cands []Candidate, vec func(string) []float32) int64 {
	typ := m.Type
	if typ == "" {
		typ = "other"
	}
	for _, c := range cands {
		if c.ByName && c.Entity.Type == typ {
			return c.Entity.ID
		}
	}
	for _, c := range cands {
		if c.ByName && (c.Entity.Type == "other" || typ == "other") {
			return c.Entity.ID
		}
	}
	// the document's definition: "Digital Millennium Copyright Act (DMCA)"
	// is the entity known as "DMCA", whatever type that one was given
	for _, c := range cands {
		if !c.ByName {
			continue
		}
		for _, a := range m.Aliases {
			if kb.NormKey(a) == kb.NormKey(c.Entity.Name) && DefinedAbbreviation(m.Name, a) {
				return c.Entity.ID
			}
		}
	}
	// one name, one type: a name the text says little of ("DMCA" alone,
	// typed by its shape) is the one entity known by it ("Digital
	// Millennium Copyright Act (DMCA)"), whatever that entity's type
	if m.TypeWeight > 0 && m.TypeWeight < weakType {
		var only int64
		n := 0
		for _, c := range cands {
			if c.ByName {
				only = c.Entity.ID
				n++
			}
		}
		if n == 1 {
			return only
		}
	}
	if vec == nil {
		return 0
	}
	mv := vec(m.Name)
	best, bestSim := int64(0), MergeThreshold
	for _, c := range cands {
		if c.Entity.Type != typ || !SimilarNames(m.Name, c.Entity.Name) {
			continue
		}
		if s := vecindex.Similarity(mv, vec(c.Entity.Name)); s >= bestSim {
			best, bestSim = c.Entity.ID, s
		}
	}
	return best
}

// DefinedAbbreviation says abbr, given in brackets after name, abbreviates
// it: all capitals (dots aside), two to six letters, starting with the
// name's first letter, the name of two words or more.
func DefinedAbbreviation(name, abbr string) bool {
	a := strings.ReplaceAll(abbr, ".", "")
	n := utf8.RuneCountInString(a)
	if len(strings.Fields(name)) < 2 || n < 2 || n > 6 {
		return false
	}
	for _, r := range a {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	r1, _ := utf8.DecodeRuneInString(a)
	r2, _ := utf8.DecodeRuneInString(name)
	return unicode.ToUpper(r2) == r1
}

var digitsRe = regexp.MustCompile(`\d+`)

// SimilarNames is the string-side guard on a vector merge: same numbers,
// at least 4 characters each, and either an edit similarity of at least
// 0.85 on the normalised names or one name's words all inside the other's
// (with at least two words in the shorter).
func SimilarNames(a, b string) bool {
	ka, kb2 := kb.NormKey(a), kb.NormKey(b)
	if ka == "" || kb2 == "" {
		return false
	}
	if ka == kb2 {
		return true
	}
	if utf8.RuneCountInString(ka) < 4 || utf8.RuneCountInString(kb2) < 4 {
		return false
	}
	if strings.Join(digitsRe.FindAllString(ka, -1), " ") != strings.Join(digitsRe.FindAllString(kb2, -1), " ") {
		return false
	}
	if editSimilarity(ka, kb2) >= 0.85 {
		return true
	}
	wa, wb := strings.Fields(ka), strings.Fields(kb2)
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	if len(wa) < 2 {
		return false
	}
	in := map[string]bool{}
	for _, w := range wb {
		in[w] = true
	}
	for _, w := range wa {
		if !in[w] {
			return false
		}
	}
	return true
}

// editSimilarity is 1 - Levenshtein(a, b) / max(len) over runes.
func editSimilarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 && len(rb) == 0 {
		return 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(max(len(ra), len(rb)))
}

var (
	bracketRe = regexp.MustCompile(`[(（]([^()（）]{1,60})[)）]`)
	akaRe     = regexp.MustCompile(`(?i)\b(?:also (?:known as|called)|a\.k\.a\.?|formerly|short for|abbreviated as)\s+["“]?([^,;.()"”]{1,60})`)
	zhAkaRe   = regexp.MustCompile(`(?:又称|又名|简称|全称|即)[“「《]?([^，。；、”」》\s]{1,30})`)
)

// DescriptionAliases reads other names for an entity out of its
// description: a bracketed name ("Beijing (北京) is ..."), "also known as
// X", "a.k.a. X", "又称X", "简称X". This is how a description says that two
// names in two languages are one entity.
func DescriptionAliases(name, description string) []string {
	var out []string
	seen := map[string]bool{kb.NormKey(name): true}
	add := func(s string) {
		s = strings.Trim(strings.TrimSpace(s), `"'“”‘’「」《》`)
		k := kb.NormKey(s)
		if k == "" || seen[k] || len(strings.Fields(s)) > 6 {
			return
		}
		r, _ := utf8.DecodeRuneInString(s)
		if !(unicode.IsUpper(r) || unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || unicode.IsDigit(r)) {
			return // "(for example ...)" and other lower-case asides
		}
		seen[k] = true
		out = append(out, s)
	}
	for _, m := range bracketRe.FindAllStringSubmatch(description, -1) {
		add(m[1])
	}
	for _, m := range akaRe.FindAllStringSubmatch(description, -1) {
		add(m[1])
	}
	for _, m := range zhAkaRe.FindAllStringSubmatch(description, -1) {
		add(m[1])
	}
	return out
}
