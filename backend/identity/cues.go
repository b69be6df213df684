package identity

import (
	"cairn/backend/lexicon"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Organisation cues. A registered name ends in a legal form ("Inc.",
// "Corporation", "Co.", "Ltd", "GmbH", ...): these suffixes are the
// language's words for a legal entity, not names of any organisation.
var (
	legalForm = `(?:Incorporated|Inc|Corporation|Corp|Company|Co|Limited|Ltd|LLC|L\.L\.C|LLP|L\.P|LP|plc|PLC|P\.L\.C|AG|SE|S\.A|SA|N\.V|NV|GmbH|B\.V|BV|Holdings|Group)`
	// orgInText: up to five capitalised words (or "&") then a legal form
	// as written or in capitals.
	orgInText = regexp.MustCompile(`((?:[\p{Lu}0-9][\p{L}0-9'’.&-]*|&)(?:[ ]+(?:[\p{Lu}0-9][\p{L}0-9'’.&-]*|&)){0,4}),?[ ]+(?:` + legalForm + `|` + strings.ToUpper(legalForm) + `)\b\.?`)
	orgLine   = regexp.MustCompile(`(?i)^(.{1,80}?),?\s+` + legalForm + `\.?$`)
)

// legalFormWords are legalForm's words in lower case without dots, as
// routing meets them in a name cut into words ("Fair Oak Co., Inc." gives
// fair, oak, co, inc), and "the", which opens many registered names.
var legalFormWords = func() map[string]bool {
	out := map[string]bool{"the": true}
	for _, w := range strings.Split(legalForm[len("(?:"):len(legalForm)-1], "|") {
		out[strings.ToLower(strings.NewReplacer(`\.`, "", ".", "").Replace(w))] = true
	}
	return out
}()

// IsLegalForm reports whether a lower-case word says what kind of entity
// a registered name is ("inc", "gmbh", "plc"), not which.
func IsLegalForm(w string) bool { return legalFormWords[w] }

// yearInName is a year standing as a word in a capitalised run.
var yearInName = regexp.MustCompile(`(?:^|\s)(?:19|20)\d\d(?:\s|$)`)

// functionWords may open a capitalised run without being part of a name
// (the lexicon's name_openers).
var functionWords = lexicon.English().Set("name_openers")

// orgCandidate is a registered name the first pages give: a cover line
// that is a name ending in a legal form, or such a name in the text.
type orgCandidate struct {
	text  string
	core  string // the name without its legal form, lower case
	score float64
	first int
}

// orgCandidates lists a document's registered names with their weight:
// twice its most prominent cover line's weight, plus how often the first
// pages repeat the name (log scale).
func orgCandidates(d Input) []*orgCandidate {
	cands := map[string]*orgCandidate{}
	var order []*orgCandidate
	add := func(s string, w float64, at int) {
		s = strings.Trim(strings.Join(strings.Fields(s), " "), " ,;:-–—")
		// A year is no word of a name: what stands before it is a
		// notice's ("Copyright 2020 Fernwick Corporation").
		if m := yearInName.FindAllStringIndex(s, -1); m != nil {
			s = strings.TrimSpace(s[m[len(m)-1][1]:])
		}
		core := strings.TrimSpace(orgLine.ReplaceAllString(s, "$1"))
		words := strings.Fields(core)
		for len(words) > 0 && functionWords[strings.ToLower(words[0])] {
			words = words[1:]
		}
		if len(words) == 0 || len(words) > 6 || len(words) == 1 && len([]rune(words[0])) < 2 {
			return
		}
		key := normLine(s)
		if c, ok := cands[key]; ok {
			// A name repeated down the cover (an exchange beside each
			// listed security) counts once, at its most prominent.
			c.score = max(c.score, w)
			return
		}
		c := &orgCandidate{text: s, core: strings.ToLower(strings.Join(words, " ")), score: w, first: at}
		cands[key] = c
		order = append(order, c)
	}
	for _, l := range d.Cover {
		if len(strings.Fields(l.Text)) <= 8 && orgLine.MatchString(l.Text) {
			add(l.Text, 2*l.Weight, l.Order)
		}
	}
	body := d.Body
	if body == "" {
		body = d.Text
	}
	for _, m := range orgInText.FindAllStringIndex(body, 400) {
		add(body[m[0]:m[1]], 0, 1000+m[0])
	}
	lower := strings.ToLower(body)
	for _, c := range order {
		c.score += math.Log2(1 + float64(mentions(lower, c.core)))
	}
	return order
}

// mentions counts the word-bounded occurrences of name in text (both lower
// case).
func mentions(text, name string) int {
	n := 0
	for from := 0; ; {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return n
		}
		at := from + i
		end := at + len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (at == 0 || !isWord(before)) && (end == len(text) || !isWord(after)) {
			n++
		}
		from = end
	}
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// organisation picks the registered name of the document: its best
// candidate, when it is named prominently or often enough (score 2).
func organisation(d Input, cands []*orgCandidate) string {
	var best *orgCandidate
	for _, c := range cands {
		if best == nil || c.score > best.score || c.score == best.score && c.first < best.first {
			best = c
		}
	}
	if best == nil || best.score < 2 {
		return ""
	}
	return displayCase(best.text, d.Body+"\n"+d.Text)
}

// displayCase writes an all-capitals name as the text writes it elsewhere
// in mixed case, else in title case ("FAIR OAK CO., INC." → "Fair Oak Co.,
// Inc.").
func displayCase(name, text string) string {
	if strings.ToUpper(name) != name {
		return name
	}
	lowerText := strings.ToLower(text)
	lowerName := strings.ToLower(name)
	for from := 0; ; {
		i := strings.Index(lowerText[from:], lowerName)
		if i < 0 {
			break
		}
		at := from + i
		if cand := text[at : at+len(name)]; strings.ToUpper(cand) != cand && len(cand) == len(name) {
			return cand
		}
		from = at + len(name)
	}
	words := strings.Fields(name)
	for i, w := range words {
		rs := []rune(strings.ToLower(w))
		for j, r := range rs {
			if unicode.IsLetter(r) {
				rs[j] = unicode.ToUpper(r)
				break
			}
			if unicode.IsDigit(r) {
				// "X9": a name with digits keeps its letters as written.
				rs = []rune(w)
				break
			}
		}
		words[i] = string(rs)
	}
	return strings.Join(words, " ")
}

// Document type cues: a form number ("FORM 10-K"), or a short cover line
// that is a kind of document ("Annual Report", "User Guide"). The nouns
// are the language's names for kinds of documents.
var (
	formLine = regexp.MustCompile(`(?i)^form\s+([0-9]{1,2}-?[a-z]{0,2}|[a-z]{1,2}-?[0-9]{1,2}[a-z]?)$`)
	kindLine = regexp.MustCompile(`(?i)^(?:[\p{L}-]+\s+){0,3}(report|review|statement|release|prospectus|guide|guidebook|handbook|manual|brochure|presentation|white ?paper|thesis|dissertation|agreement|contract|policy|proposal|specification|datasheet|fact ?sheet|newsletter|minutes|transcript|catalog(?:ue)?)$`)
	yearWord = regexp.MustCompile(`\b(?:19|20)\d\d\b`)
	yearIn   = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)\d\d)(?:[^0-9]|$)`)
)

// docType is the kind of document its cover states.
func docType(d Input, boiler func(string) bool) string {
	for _, l := range d.Cover {
		if m := formLine.FindStringSubmatch(strings.TrimSpace(l.Text)); m != nil {
			return "Form " + strings.ToUpper(m[1])
		}
	}
	for _, l := range d.Cover {
		t := strings.TrimSpace(yearWord.ReplaceAllString(l.Text, ""))
		t = strings.Join(strings.Fields(t), " ")
		if l.Weight >= 1.2 && kindLine.MatchString(t) {
			return displayCase(t, "")
		}
	}
	return ""
}

var (
	month     = `(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?`
	date      = month + `\s+(\d{1,2}),?\s+((?:19|20)\d\d)`
	yearEnded = regexp.MustCompile(`(?i)(?:fiscal\s+)?year\s+ended:?\s*` + date)
	qtrEnded  = regexp.MustCompile(`(?i)quarter(?:ly\s+period)?\s+ended:?\s*` + date)
	reportOn  = regexp.MustCompile(`(?i)date\s+of\s+report[^:]{0,60}:\s*` + date)
	nthQtr    = regexp.MustCompile(`(?i)\b(first|second|third|fourth)[- ]quarter,?\s+(?:of\s+)?(fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)\b`)
	fiscalYr  = regexp.MustCompile(`(?i)\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\b`)
)

// monthShort are the lexicon's month names cut to three letters, from
// index 1 ("Jan"); monthNumber the same in lower case → the month's number.
var monthShort, monthNumber = func() ([]string, map[string]int) {
	short, num := []string{""}, map[string]int{}
	for i, m := range lexicon.English().Words("months") {
		short = append(short, m[:3])
		num[strings.ToLower(m[:3])] = i + 1
	}
	return short, num
}()

func monthOf(s string) int { return monthNumber[strings.ToLower(s)[:3]] }

// quarterOf is the quarter an ordinal names ("second" → "Q2"), from the
// lexicon's ordinals.
func quarterOf(ordinal string) string {
	for i, w := range lexicon.English().Words("ordinal_words")[:4] {
		if strings.EqualFold(w, ordinal) {
			return fmt.Sprintf("Q%d", i+1)
		}
	}
	return ""
}

// period is the period the cover says the document covers: a fiscal year
// ("FY2018"; "FY ended Feb 2, 2019" when the year does not end in
// December, whose name companies choose either way), a quarter ("Q1 2021",
// or "quarter ended Jul 29, 2023" off the calendar quarters), a report
// date, or "Q1 2023" / "fiscal 2022" as the text names them.
func period(text string) string {
	if m := yearEnded.FindStringSubmatch(text); m != nil {
		mo, day := monthOf(m[1]), atoi(m[2])
		switch {
		case mo == 12 && day >= 20: // a 52/53-week year ends near December 31
			return "FY" + m[3]
		case mo == 1 && day <= 7:
			return "FY" + strconv.Itoa(atoi(m[3])-1)
		}
		return fmt.Sprintf("FY ended %s %d, %s", monthShort[mo], day, m[3])
	}
	if m := qtrEnded.FindStringSubmatch(text); m != nil {
		mo, day := monthOf(m[1]), atoi(m[2])
		if mo%3 == 0 && day >= 28 {
			return fmt.Sprintf("Q%d %s", mo/3, m[3])
		}
		return fmt.Sprintf("quarter ended %s %d, %s", monthShort[mo], day, m[3])
	}
	if m := reportOn.FindStringSubmatch(text); m != nil {
		return fmt.Sprintf("%s %d, %s", monthShort[monthOf(m[1])], atoi(m[2]), m[3])
	}
	if m := nthQtr.FindStringSubmatch(text); m != nil {
		q := quarterOf(m[1])
		if m[2] != "" {
			return q + " fiscal " + m[3]
		}
		return q + " " + m[3]
	}
	if m := fiscalYr.FindStringSubmatch(text); m != nil {
		return "fiscal " + m[1]
	}
	return ""
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// FiscalYearEnd reads the day a fiscal year ends on from a period as
// period writes it: "FY ended Jan 25, 2025" is January 25, "FY2018" (a
// year ending at December's end) December 31; ok is false for any other
// period.
func FiscalYearEnd(period string) (month time.Month, day int, ok bool) {
	if m := fyEndedRE.FindStringSubmatch(period); m != nil {
		if mo := monthOf(m[1]); mo > 0 {
			return time.Month(mo), atoi(m[2]), true
		}
	}
	if fyYearRE.MatchString(period) {
		return time.December, 31, true
	}
	return 0, 0, false
}

var (
	fyEndedRE = regexp.MustCompile(`^FY ended ([A-Z][a-z]{2}) (\d{1,2}), (?:19|20)\d\d$`)
	fyYearRE  = regexp.MustCompile(`^FY(?:19|20)\d\d$`)
)

// Span kinds of a period (PeriodSpan).
const (
	SpanYear    = "year"
	SpanQuarter = "quarter"
)

// PeriodSpan tells what length of time a period (as period writes it)
// covers: SpanYear for a fiscal year ("FY2018", "FY ended Feb 2, 2019",
// "fiscal 2022"), SpanQuarter for a quarter ("Q1 2021", "Q4 fiscal 2022",
// "quarter ended Jul 26, 2025"); "" for a report date or none.
func PeriodSpan(period string) string {
	switch {
	case strings.HasPrefix(period, "FY"), strings.HasPrefix(period, "fiscal "):
		return SpanYear
	case strings.HasPrefix(period, "quarter ended "), len(period) > 2 && period[0] == 'Q' && period[1] >= '1' && period[1] <= '4':
		return SpanQuarter
	}
	return ""
}

// Years lists the years a document's period and file name name (the
// routing of a question that names a period reads them).
func Years(period, fileName string) []int {
	var out []int
	seen := map[int]bool{}
	for _, s := range []string{period, fileName} {
		for _, m := range yearIn.FindAllStringSubmatch(s, -1) {
			y := atoi(m[1])
			if !seen[y] {
				seen[y] = true
				out = append(out, y)
			}
		}
	}
	return out
}
