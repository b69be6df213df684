package relphrase

import (
	"strings"
	"testing"
)

func TestBetween(t *testing.T) {
	cases := []struct {
		sentence, a, b, title string
		want                  string
		stated                bool
	}{
		{"The Harbor Bridge was designed by Mara Okafor in 2009.", "Harbor Bridge", "Mara Okafor", "", "was designed by", true},
		{"She was born in Lagos and studied in Delft.", "Mara Okafor", "Lagos", "Mara Okafor", "was born in", true},
		{"Paris is the capital of France.", "Paris", "France", "", "is the capital of", true},
		{"Alan Turing, the father of computer science, was born in London.", "Alan Turing", "computer science", "", "the father of", true},
		{"Kestria's founder Tomas Rell retired.", "Kestria", "Tomas Rell", "", "founder", true},
		{"The IRS is not responsible for U.S. treaties.", "IRS", "U.S", "", "is not responsible for", true},
		// No phrase the text states: the sentence labels the edge.
		{"Contact the IRS for not filing in the U.S. on time.", "IRS", "U.S", "", "“Contact the IRS for not filing in the U.S. on time.”", false},
		{"File Form 1040 available under U.S. rules.", "Form 1040", "U.S", "", "“File Form 1040 available under U.S. rules.”", false},
		{"Beijing and Shanghai are large cities.", "Beijing", "Shanghai", "", "“Beijing and Shanghai are large cities.”", false},
		// The object first: the text does not read subject → object.
		{"Mara Okafor designed the Harbor Bridge.", "Harbor Bridge", "Mara Okafor", "", "“Mara Okafor designed the Harbor Bridge.”", false},
		{"劳动者，是用人单位。", "劳动者", "用人单位", "", "“劳动者，是用人单位。”", false},
		{"工资是劳动者付出劳动的报酬。", "工资", "劳动者", "", "“工资是劳动者付出劳动的报酬。”", false},
		{"用人单位不能与劳动者解除劳动合同。", "劳动者", "劳动合同", "", "“用人单位不能与劳动者解除劳动合同。”", false},
		{"劳动者可以解除劳动合同，本条规定。", "劳动者", "劳动合同", "", "可以解除", true},
		{"in the user’s home directory", "user", "home", "", "“in the user’s home directory”", false},
		{"Kestria’s founder Tomas Rell retired.", "Kestria", "Tomas Rell", "", "founder", true},
		{"Retrieval in open-domain QA is usually implemented using TF-IDF.", "QA", "TF-IDF", "", "“Retrieval in open-domain QA is usually implemented using…”", false},
		{"Adam Kennedy hit a triple that sent Yankees home.", "Adam Kennedy", "Yankees", "", "“Adam Kennedy hit a triple that sent Yankees home.”", false},
		{"The inability to administer cases also may result in the Trustee acting.", "CASES", "Trustee", "", "“The inability to administer cases also may result in the…”", false},
		{"另外，试用期还有两种情况用人单位可以解除劳动合同，但是需要提前。", "用人单位", "劳动合同", "", "“另外，试用期还有两种情况用人单位可以解除劳动合同，但是需要提前。”", false},
		{"The DMCA amends the DPRA, expanding it.", "DMCA", "DPRA", "", "amends the", true},
		{"Section 405 of the DMCA amends the DPRA.", "DMCA", "DPRA", "", "“Section 405 of the DMCA amends the DPRA.”", false},
		{"13.2 Contributed packages and CRAN.", "Contributed", "CRAN", "", "“13.2 Contributed packages and CRAN.”", false},
		{"Across the country, RIL is India’s largest corporate.", "RIL", "India", "", "“Across the country, RIL is India’s largest corporate.”", false},
		{"因设立中的公司用工行为发生的争议是劳动争议吗？", "争议", "劳动争议", "", "“因设立中的公司用工行为发生的争议是劳动争议吗？”", false},
		{"Title II, the “Online Copyright Infringement Liability Limitation Act”", "Title II", "Online Copyright Infringement Liability Limitation", "", "“Title II, the “Online Copyright Infringement Liability…”", false},
		{"因此，自然人并不属于用人单位。", "自然人", "用人单位", "", "并不属于", true},
		{"认定双方存在劳动关系多是参照一些凭证。", "劳动", "一些", "", "“认定双方存在劳动关系多是参照一些凭证。”", false},
		{"是实现六重索引的典型系统。", "索引", "系统", "", "“是实现六重索引的典型系统。”", false},
	}
	for _, c := range cases {
		got, stated := Between(c.sentence, c.a, c.b, c.title)
		if got != c.want || stated != c.stated {
			t.Errorf("Between(%q, %q, %q) = %q, %v; want %q, %v", c.sentence, c.a, c.b, got, stated, c.want, c.stated)
		}
	}
}

func TestQuoteCuts(t *testing.T) {
	q := Quote(strings.Repeat("word ", 40))
	if len([]rune(q)) > 62 || !strings.HasSuffix(q, "…”") {
		t.Errorf("Quote = %q", q)
	}
}

func FuzzBetween(f *testing.F) {
	for _, s := range [][4]string{
		{"Ada Brook founded the Harbor Press in 1901.", "Ada Brook", "Harbor Press", ""},
		{"She later became the mayor of Eastbrook.", "Mia Lund", "Eastbrook", "Mia Lund"},
		{"示例公司属于示例集团。", "示例公司", "示例集团", ""},
		{"", "", "", ""},
		{"A, the B of C", "A", "C", "A"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, sentence, a, b, title string) {
		label, stated := Between(sentence, a, b, title)
		if label == "" {
			t.Fatalf("Between(%q, %q, %q): empty label", sentence, a, b)
		}
		if stated && len(strings.Fields(label)) > MaxWords && !strings.ContainsFunc(label, isCJKRune) {
			t.Fatalf("Between(%q, %q, %q): phrase %q longer than %d words", sentence, a, b, label, MaxWords)
		}
	})
}
