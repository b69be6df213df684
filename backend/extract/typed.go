package extract

import (
	"regexp"
	"strings"
)

// typedPattern is a pattern the offline extractor types entities by: dates,
// money, percentages, quantities, law and section references, form and
// document numbers, quoted titles.
type typedPattern struct {
	re       *regexp.Regexp
	typ, sem string
	group    int // the submatch that is the name (0: all of it)
	// without: the pattern cannot match a sentence without a digit that
	// also holds none of these strings (a cheap test before the regexp)
	without []string
}

const monthNames = `(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\.|Feb\.|Mar\.|Apr\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)`

var typedPatterns = []typedPattern{
	// Law and section references.
	{re: regexp.MustCompile(`\b\d+\s+U\.\s?S\.\s?C\.\s*(?:§+\s*)?\d+[a-z]?(?:\([A-Za-z0-9]+\))*`), typ: "law", sem: "section"},
	{re: regexp.MustCompile(`§+\s?\d+(?:\.\d+)*[a-z]?(?:\([A-Za-z0-9]+\))*`), typ: "law", sem: "section"},
	{re: regexp.MustCompile(`\b(?:[Ss]ection|[Ss]ec\.|[Aa]rticle|[Rr]ule|[Cc]hapter|[Tt]itle|[Pp]aragraph|[Cc]lause)\s+(?:\d+[A-Za-z]?(?:\([A-Za-z0-9]+\))*(?:\.\d+)*|[IVX]{1,5}\b)`), typ: "law", sem: "section",
		without: []string{"ection ", "ec. ", "rticle ", "ule ", "hapter ", "itle ", "aragraph ", "lause "}}, // "Title II": a Roman numeral needs no digit
	{re: regexp.MustCompile(`第[一二三四五六七八九十百千零〇两\d]+[条章节款项编](?:第[一二三四五六七八九十百千零〇两\d]+[款项])?`), typ: "law", sem: "section", without: []string{"第"}},
	// Forms and numbered documents.
	{re: regexp.MustCompile(`\b(?:Form|Schedule|Publication|Pub\.|Notice|Circular|Revenue Procedure|Rev\. Proc\.|Executive Order|Public Law|Pub\. L\.|Bill|H\.R\.|S\.)\s?(?:No\.\s?)?[A-Z]?\d[\dA-Z]*(?:[-–]\d*[A-Z]*)*(?:\s?\([A-Z0-9-]+\))?`), typ: "work", sem: "form"},
	// Money.
	{re: regexp.MustCompile(`(?:US)?[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|trillion|thousand|[MBK]n?)\b)?`), typ: "money", sem: "amount"},
	{re: regexp.MustCompile(`\b\d[\d,]*(?:\.\d+)?\s?(?:million |billion |thousand )?(?:dollars|euros|pounds|yen|yuan|rupees|USD|EUR|GBP|RMB)\b`), typ: "money", sem: "amount"},
	{re: regexp.MustCompile(`\d[\d,]*(?:\.\d+)?\s?(?:万元|亿元|元|万美元|美元|円|원)`), typ: "money", sem: "amount"},
	// Percentages.
	{re: regexp.MustCompile(`\b\d+(?:\.\d+)?\s?(?:%|percent\b|per cent\b)|百分之[一二三四五六七八九十百零\d]+|\d+(?:\.\d+)?％`), typ: "percent", sem: "percentage", without: []string{"百分之"}},
	// Dates.
	{re: regexp.MustCompile(`\b(?:\d{1,2}\s+` + monthNames + `,?\s+\d{4}|` + monthNames + `\s+\d{1,2},\s+\d{4}|` + monthNames + `\s+\d{4})\b`), typ: "date", sem: "date"},
	{re: regexp.MustCompile(`\b(?:19|20)\d{2}-\d{2}-\d{2}\b`), typ: "date", sem: "date"},
	{re: regexp.MustCompile(`\d{4}年(?:\d{1,2}月)?(?:\d{1,2}日)?`), typ: "date", sem: "date"},
	{re: regexp.MustCompile(`\b(?:in|since|until|by|from|during|before|after|of|year)\s+((?:1[5-9]|20)\d{2})\b`), typ: "date", sem: "year", group: 1},
	// Quantities.
	{re: regexp.MustCompile(`\b\d[\d,]*(?:\.\d+)?\s?(?:km|kilometres|kilometers|miles|metres|meters|kg|kilograms|tons|tonnes|pounds|lbs|acres|hectares|hours|days|weeks|months|years|minutes|seconds|GB|MB|TB|KB|mm|cm|°C|°F|employees|workers|pages|people|persons)\b`), typ: "quantity", sem: "quantity"},
	// Quoted titles: “The Title Of A Work”.
	{re: regexp.MustCompile(`[“"]([A-Z][^"”\n]{2,60})[”"]`), typ: "work", sem: "title", group: 1, without: []string{"“", `"`}},
}

// typedSpans finds the typed entities of one sentence.
func typedSpans(text string, sent [2]int) []candidate {
	s := text[sent[0]:sent[1]]
	var out []candidate
	taken := make([]bool, len(s)+1)
	digits := strings.ContainsAny(s, "0123456789")
	for _, p := range typedPatterns {
		if !digits && !containsOne(s, p.without) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			a, b := m[0], m[1]
			if p.group > 0 {
				a, b = m[2*p.group], m[2*p.group+1]
			}
			name := strings.TrimRight(s[a:b], " ,.;:")
			b = a + len(name)
			if name == "" || taken[a] || taken[b-1] {
				continue
			}
			if p.sem == "title" && (!titleLike(name) || definedInBrackets(s[:m[0]]) || definedAfter.MatchString(s[m[1]:])) {
				continue
			}
			for k := a; k < b; k++ {
				taken[k] = true
			}
			out = append(out, candidate{name: name, typ: p.typ, sem: p.sem, typed: true, a: sent[0] + a, b: sent[0] + b})
		}
	}
	return out
}

// containsOne reports whether s contains one of subs.
func containsOne(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// maxDefinitionLead is how far before a quoted term its opening bracket
// may stand ("(collectively, the “Credit Agreements”").
const maxDefinitionLead = 40

// definedInBrackets reports whether a quoted phrase stands inside an open
// bracket ("X9 Company (the “Company”)", "other comprehensive income
// (“AOCI”)") or after words that define a term ("known as “PFAS”"). That
// is a term the document defines for what comes before it, not the title
// of a work; it is read like any other name.
func definedInBrackets(before string) bool {
	open := strings.LastIndex(before, "(")
	if open >= 0 && len(before)-open <= maxDefinitionLead && !strings.Contains(before[open:], ")") {
		return true
	}
	return definingLead.MatchString(before)
}

// definingLead ends the words that introduce a term a document defines
// ("collectively known as “PFAS”", "referred to as the “Notes”"); a
// title is introduced otherwise ("the song “Harbour Lights”", "entitled").
var definingLead = regexp.MustCompile(`(?i)\b(?:known|referred to|defined|designated)\s+as\s+(?:the\s+)?$|\bhereinafter\s+(?:the\s+)?$`)

// definedAfter begins the text after a quoted term that a definition
// follows: "“Business Day” means …", "“Dollars” and the “$” sign each
// means …", "“Borrower” shall have the meaning …" (an agreement's
// definitions), up to a clause's length away.
var definedAfter = regexp.MustCompile(`^[^.;:]{0,40}?\b(?:means|shall mean|shall have the meaning|has the meaning|have the meaning)\b`)

// titleLike says a quoted phrase reads as a title (2-8 words, most of them
// capitalised), not a quoted sentence.
func titleLike(s string) bool {
	ws := strings.Fields(s)
	if len(ws) < 1 || len(ws) > 8 || strings.ContainsAny(s, ".!?;") {
		return false
	}
	caps := 0
	for _, w := range ws {
		if capitalised(w) {
			caps++
		}
	}
	return caps*2 >= len(ws)
}

// Context patterns types.go reads evidence from: an honorific before a
// name, ", who" / "said" after it, place prepositions, an organisation's
// apposition.
var (
	honorific = regexp.MustCompile(`(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Judge|Justice|Senator|Rep|Representative|Governor|President|Secretary|Commissioner|Chairman|Chairwoman|Director)\.?\s+)$`)
	personAft = regexp.MustCompile(`^(?:,\s+(?:who|whose)\b|\s+(?:said|says|wrote|argued|explained|testified|stated|noted|told)\b|,\s+(?:born|aged)\b|\s+\((?:born|b\.)\s|\s+et\s+al\b|,?\s+\((?:19|20)\d\d[a-z]?\))`)
	placeBef  = regexp.MustCompile(`\b(?:in|at|near|from)\s+(?:(?:north|south|east|west|northern|southern|eastern|western|central|north-eastern|north-western|south-eastern|south-western|northeastern|northwestern|southeastern|southwestern|rural|downtown|suburban|coastal)\s+)?$`)
	placeAft  = regexp.MustCompile(`^,\s+[A-Z]{2}\b`) // "Austin, TX": a postal region code
	orgAft    = regexp.MustCompile(`^,\s+(?:a company|an agency|a firm|a corporation|a nonprofit|a non-profit)\b`)
	// orgForm is a company's legal form after its name ("Acme, Inc.",
	// "Brill & Co.", "Vanto AG"): the name is an organisation's.
	orgForm = regexp.MustCompile(`^(?:,\s*|\s+)(?:&\s+Co\b|Inc\b|Incorporated\b|Corp\b|Corporation\b|Co\.|Ltd\b|Limited\b|LLC\b|L\.L\.C\.|LLP\b|L\.P\.|plc\b|PLC\b|N\.A\.|S\.A\.|AG\b|GmbH\b|N\.V\.|B\.V\.|S\.p\.A\.|Pty\b|S\.A\.S\.)`)
)
