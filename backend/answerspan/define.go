package answerspan

import (
	"regexp"
	"strings"
)

// define answers "what does X prohibit / mean / require": the words after
// the question's verb in the best sentence that uses it.
func (f *finder) define() []Candidate {
	var verb []string
	for _, w := range f.qStems {
		if defineVerbs[w] {
			verb = append(verb, w)
		}
	}
	var out []Candidate
	for i := range f.ps {
		pw := f.passageWeight(i)
		for _, s := range f.sents[i] {
			ws := words(s.text)
			for k, w := range ws {
				st := Stems(w.text)
				if len(st) == 0 {
					continue
				}
				hit := false
				for _, v := range verb {
					if st[0] == v {
						hit = true
					}
				}
				lw := strings.ToLower(w.text)
				// A verb form, not the noun ("prohibitions"), and not negated.
				if !hit || strings.HasSuffix(lw, "ion") || strings.HasSuffix(lw, "ions") || strings.HasSuffix(lw, "ing") || k+1 >= len(ws) {
					continue
				}
				prev := ""
				if k > 0 {
					prev = strings.ToLower(ws[k-1].text)
				}
				if prev == "not" || prev == "never" || prev == "no" {
					continue
				}
				var start, end int
				if (prev == "is" || prev == "are" || prev == "was" || prev == "were" || prev == "be") && strings.HasSuffix(lw, "ed") && k >= 2 {
					// Passive: "Making or selling devices ... is prohibited".
					start, end = 0, ws[k-2].end
					if c := strings.LastIndexAny(s.text[:end], ";:"); c >= 0 {
						start = c + 1
					}
				} else {
					start = ws[k+1].start
					end = len(s.text)
					if c := strings.IndexAny(s.text[start:], ";:"); c > 0 {
						end = start + c
					}
					if c := strings.Index(s.text[start:end], ", but"); c > 0 {
						end = start + c
					}
				}
				for start < end && s.text[start] == ' ' {
					start++
				}
				rest := strings.Fields(s.text[start:end])
				if len(rest) > 18 {
					end = start + len(strings.Join(rest[:18], " "))
				}
				text := strings.TrimRight(strings.TrimSpace(s.text[start:end]), ".,")
				if len(strings.Fields(text)) < 2 {
					continue
				}
				score := (0.6*f.sentRel(s) + 0.3*pw + 0.1) * f.refersTo(i, s.start, s.start+w.start)
				out = append(out, Candidate{Text: text, Type: TPhrase, Score: round3(score),
					Span:  Ref{Passage: i, Start: s.start + start, End: s.start + start + len(text)},
					Chain: []Ref{{Passage: i, Start: s.start, End: s.end}}})
			}
		}
	}
	return out
}

var (
	reSectionRef = regexp.MustCompile(`(?i)(?:\bsection|§)\s*(\d+[a-z]?(?:\([0-9a-zA-Z]+\))*)`)
	reSubsection = regexp.MustCompile(`(?i)\b(?:subsection|paragraph|clause|title|article|chapter)\s*\(?[0-9a-zA-Z]+\)?`)
	reAnaphor    = regexp.MustCompile(`(?i)^\W*(?:the provision|this provision|the section|this section|it|the prohibition|the law|the act)\b`)
)

// refersTo weighs a statement whose sentence starts at byte sent and whose
// verb is at byte verb of passage i by the section it is said of, against
// the section the question asks about: the subject before the verb when it
// names one ("Section 1201 prohibits", "Subsection (a) prohibits"), else,
// for "the provision", "it" …, the section the text last named before the
// sentence. The same section 1.2, another one ("section 1201(k)" for
// "section 1201", a subsection) 0.7, none or no section asked about 1.
func (f *finder) refersTo(i, sent, verb int) float64 {
	q := reSectionRef.FindStringSubmatch(f.q.Text)
	if q == nil {
		return 1
	}
	want := strings.ToLower(q[1])
	text := f.ps[i].Text
	subject := text[sent:verb]
	if m := reSectionRef.FindAllStringSubmatch(subject, -1); len(m) > 0 {
		if strings.ToLower(m[0][1]) == want {
			return 1.2
		}
		return 0.7
	}
	if reSubsection.MatchString(subject) {
		return 0.7
	}
	if !reAnaphor.MatchString(subject) {
		return 1
	}
	refs := reSectionRef.FindAllStringSubmatch(text[:sent], -1)
	if len(refs) == 0 {
		return 1
	}
	if strings.ToLower(refs[len(refs)-1][1]) == want {
		return 1.2
	}
	return 0.7
}
