package question

import (
	"regexp"
	"strings"

	"cairn/backend/lexicon"
)

// sectionLabelRE finds a labelled part of a document: a label noun (lexicon
// section_label_nouns) and its number, letter or Roman numeral ("Unit 7",
// "chapter 3.2", "Appendix B", "Part II").
var sectionLabelRE = func() *regexp.Regexp {
	nouns := lexicon.English().Words("section_label_nouns")
	return regexp.MustCompile(`(?i)\b(` + strings.Join(nouns, "|") + `)\s+(\d{1,3}(?:\.\d{1,2}){0,2}|[A-Z]|[IVXL]{1,5})\b`)
}()

// sectionTitleCues are the words that ask what a part is called or about.
var sectionTitleCues = lexicon.English().Set("section_title_cues")

// maxSectionLabels bounds the parts one question asks the titles of.
const maxSectionLabels = 4

// SectionLabels returns the labelled parts of a document a question asks
// the title or topic of: "What is the topic of UNIT 7?" gives "UNIT 7",
// "What are the names of Unit 1 and Unit 2?" gives both, "What is Chapter
// 3 about?" gives "Chapter 3". A cue (lexicon section_title_cues) must
// stand before the first label or right after the last ("about",
// "called"); a question that only names a part ("How many quizzes are in
// Unit 8?") asks none. English cues.
func SectionLabels(text string) []string {
	locs := sectionLabelRE.FindAllStringIndex(text, -1)
	if len(locs) == 0 || len(locs) > maxSectionLabels {
		return nil
	}
	before := strings.Fields(strings.ToLower(text[:locs[0][0]]))
	after := strings.Fields(strings.ToLower(text[locs[len(locs)-1][1]:]))
	cued := false
	for i := len(before) - 1; i >= 0 && i >= len(before)-4; i-- {
		if sectionTitleCues[strings.Trim(before[i], "?,.:;'\"")] {
			cued = true
		}
	}
	if len(after) > 0 {
		w := strings.Trim(after[0], "?,.:;'\"")
		cued = cued || w == "about" || w == "called"
	}
	if !cued {
		return nil
	}
	var out []string
	for _, l := range locs {
		out = append(out, strings.Join(strings.Fields(text[l[0]:l[1]]), " "))
	}
	return out
}
