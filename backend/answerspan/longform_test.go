package answerspan

import "testing"

func TestLongForms(t *testing.T) {
	for _, c := range []struct{ short, text, want string }{
		{"QRTL", "Work at the Quiet River Test Laboratory (QRTL) began in 1990.", "Quiet River Test Laboratory"},
		{"QRTL", "The lab, Quiet River Test Laboratory (“QRTL”), opened.", "Quiet River Test Laboratory"},
		{"QRTL", "Funding went to QRTL (Quiet River Test Laboratory) last year.", "Quiet River Test Laboratory"},
		{"BoD", "Approved by the Board of Directors (BoD).", "Board of Directors"},
		{"SRC", "Abbreviations\nSRC – Site Review Committee\nQE Qualifying Examination", "Site Review Committee"},
		{"QE", "Abbreviations\nSRC – Site Review Committee\nQE Qualifying Examination", "Qualifying Examination"},
		{"SRC", "SRC | Site Review Committee | 3 members", "Site Review Committee"},
		{"COGS", "Cost of goods sold (COGS) rose.", "Cost of goods sold"},
		// A parenthesis that is no long form; a word that only contains it.
		{"QRTL", "Work at QRTL (since 1990) began.", ""},
		{"QRTL", "The QRTLX (Quiet River Test Laboratory) is new.", ""},
		{"QRTL", "Results were sent to QRTL and then to the board.", ""},
	} {
		got := ""
		if sp := LongForms(c.short, c.text); len(sp) > 0 {
			got = c.text[sp[0].Start:sp[0].End]
		}
		if got != c.want {
			t.Errorf("LongForms(%q, %q) = %q, want %q", c.short, c.text, got, c.want)
		}
	}
}

func FuzzLongForms(f *testing.F) {
	f.Add("QRTL", "Quiet River Test Laboratory (QRTL)")
	f.Add("SRC", "SRC – Site Review Committee\n(SRC")
	f.Fuzz(func(t *testing.T, short, text string) {
		if short == "" {
			return
		}
		for _, sp := range LongForms(short, text) {
			if sp.Start < 0 || sp.End > len(text) || sp.Start >= sp.End {
				t.Fatalf("bad span %+v of %q", sp, text)
			}
		}
	})
}
