package extract

import (
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// offlineOf extracts one made-up passage.
func offlineOf(text string) Result {
	return ExtractOffline(Input{Chunk: kb.Chunk{ID: 1, DocID: 1, PageStart: 1, PageEnd: 1, CharStart: 0, CharEnd: len(text), Text: text}})
}

func entityTypes(r Result) map[string]string {
	out := map[string]string{}
	for _, e := range r.Entities {
		out[e.Name] = e.Type
	}
	return out
}

// Types come from what the text says around a name; one type per entity.
func TestOfflineTypesFromEvidence(t *testing.T) {
	cases := []struct {
		text string
		want map[string]string
	}{
		{"Tomas Verhoek (born 4 May 1950 in Dunmarsh) is a Kestrian painter. He studied in Orvale.",
			map[string]string{"Tomas Verhoek": "person", "Dunmarsh": "location", "Kestrian": "location", "Orvale": "location"}},
		{"Brelloc is a town in the Varn Valley. The Halvik Gazette is a newspaper based in Brelloc.",
			map[string]string{"Brelloc": "location", "Varn Valley": "location", "Halvik Gazette": "organization"}},
		{"The album was recorded by Mira Osterfeld and Jonah Pell at the studio of Quellmark Records.",
			map[string]string{"Mira Osterfeld": "person", "Jonah Pell": "person", "Quellmark Records": "organization"}},
		{"The race ended in Tarrow, Welmshire, where Osterfeld won. Osterfeld later coached the team.",
			map[string]string{"Tarrow": "location", "Welmshire": "location"}},
		{"Dr. Anneke Brund joined Fennick Labs in 2004.",
			map[string]string{"Anneke Brund": "person", "Fennick Labs": "organization"}},
		// the head before "of" decides over the last word
		{"He sat on the Circuit Court of Varn County for ten years.",
			map[string]string{"Circuit Court of Varn County": "organization"}},
		// a class noun right before the name, without an article
		{"The record features guitarist Olan Terwe and the club Dravik United.",
			map[string]string{"Olan Terwe": "person", "Dravik United": "organization"}},
		// maker and author frames
		{"The Pellum Q was developed by Quorrin. The film was directed by Sefa Holm.",
			map[string]string{"Quorrin": "organization", "Sefa Holm": "person"}},
		// founded, a person's kin, a place's capital
		{"Marrowind Ostal was founded in 1921. Tavi Ronsk's wife taught there. The delegates praised Brellia's capital.",
			map[string]string{"Marrowind Ostal": "organization", "Tavi Ronsk": "person", "Brellia": "location"}},
		// marriage, kin, an administration; a compass word after "of", a place noun after the name
		{"In 1686 she married Tesk Holloran, the son of Brannoc. He served under the Fennick administration in the north of northeastern Quenmark and the Dravo prefecture.",
			map[string]string{"Tesk Holloran": "person", "Brannoc": "person", "Fennick": "person", "Quenmark": "location", "Dravo": "location"}},
		// a list's class noun; a club's frames; a class noun used as a name
		{"He studied under masters such as Orrin Vaskel. He was drafted by the Harbour Kestrels and served in the Navy. FC Dravik won.",
			map[string]string{"Orrin Vaskel": "person", "Harbour Kestrels": "organization", "Navy": "organization", "FC Dravik": "organization"}},
		// a place noun before "of", a life's places in brackets
		{"Hesk is one of the districts of Ulvany. Edda Morrel (Quenfort, 2 June 1663 – Vessa, May 1719) was a writer.",
			map[string]string{"Ulvany": "location", "Quenfort": "location", "Edda Morrel": "person"}},
		// a list after an irregular plural of a class noun
		{"Orla Venn is a Kestrian chemist. She has three children: Tamsin, Corwen, and Ilse.",
			map[string]string{"Tamsin": "person", "Corwen": "person", "Ilse": "person"}},
		// a first name alone, beside a place named after the person
		{"Drift is an album by Taro Quellin. It was recorded at Taro Quellin's Lounge in Ferrow, where the band backed Taro.",
			map[string]string{"Taro": "person"}},
		// a family's name: the father's and the son's names end with it
		{"Brannoc Edvar Stoll (1861 – 1922) was a Kestrian officer. He was the son of Orrin Haakel Stoll (1820 – 1888). Stoll retired in 1918.",
			map[string]string{"Stoll": "person"}},
		// a name with a particle, a name of four words
		{"The club signed Orvalo Dantes da Cunha in 2004. Later it signed Ilmar Teodoro Vasque Penhal.",
			map[string]string{"Orvalo Dantes da Cunha": "person", "Ilmar Teodoro Vasque Penhal": "person"}},
		// a list's later names take the frame before its first; a list's
		// last two names are two ("Fennet and Olby", not one name)
		{"He played for the 19ers, Brint Harbour Owls, Wexley Tars and Dunmore Kestrels. The road runs through Alby, Cove, Fennet and Olby.",
			map[string]string{"Brint Harbour Owls": "organization", "Wexley Tars": "organization", "Dunmore Kestrels": "organization",
				"Cove": "location", "Fennet": "location", "Olby": "location"}},
		// initials belong to the name; a list the subject is said to include
		{"The novel was written by E. D. Marrow. Towns in the valley include Alby, Cove and Hesk.",
			map[string]string{"E. D. Marrow": "person", "Alby": "location", "Cove": "location", "Hesk": "location"}},
		// a name ending in a word the text writes in lower case is no
		// person's by its shape alone; a person's is, by what is said of it
		{"See the Consolidated Balance Sheets for the balance sheets of the year. Orla Venn said the year was good.",
			map[string]string{"Consolidated Balance Sheets": "other", "Orla Venn": "person"}},
		// a company's legal form or its trade's plural as the name's last word
		{"The vaccine was licensed from Quellix SE and sold through Vestrel Communications.",
			map[string]string{"Quellix SE": "organization", "Vestrel Communications": "organization"}},
		// a post is no person: its holder is
		{"The Vice President of Finance, Orla Venn, signed the report for the Chief Executive Officer.",
			map[string]string{"Vice President of Finance": "concept", "Orla Venn": "person"}},
		// a place's class noun in another language; a body's name cut short
		{"The bakery faces Piazza Orsolini. Fennick Fotball was founded in 1921. The cup went to Fennick in 1950.",
			map[string]string{"Piazza Orsolini": "location", "Fennick Fotball": "organization", "Fennick": "organization"}},
		// a person's title before "of", a place body's class noun before its name
		{"The realm was ruled by Orrec, king of the northern Vales, who founded Stellan University Varrow.",
			map[string]string{"Orrec": "person", "Stellan University Varrow": "organization"}},
		// borders, streets, routes, rivers, a place's parts
		{"Varnet is bordered on the south by Quell Hadar and on the west by Osk. The bakery is located on Vell Ostra. " +
			"The road travels through Brennig to Tull. The confluence of the Vesk (Veskra) and Olm rivers lies near Hallow. " +
			"Hallow is a town. It consists of Old Hallow and New Hallow.",
			map[string]string{"Quell Hadar": "location", "Osk": "location", "Vell Ostra": "location", "Brennig": "location",
				"Olm": "location", "Old Hallow": "location", "New Hallow": "location"}},
		// a mountain by its abbreviation; a list whose names carry particles
		// or a name in brackets keeps the frame before its first name
		{"The village lies at the foot of Mt. Quorvel. The road travels through Ostmark, Brugg an der Vell, " +
			"Dernholt (Darnholm) and Pellwick to the coast.",
			map[string]string{"Quorvel": "location", "Dernholt": "location", "Pellwick": "location"}},
		// places and buildings named by their last word
		{"The trail crosses the Hollin Range near Marrow Pond and ends at Quenby Mansion on Tessing Drive.",
			map[string]string{"Hollin Range": "location", "Marrow Pond": "location", "Quenby Mansion": "location", "Tessing Drive": "location"}},
		// a surname two people of the passage share is still a person's
		{"Jori Vantan (3 May 1940 – 1 June 1990) was a singer. Jorin Alder Vantan wrote his songs. Vantan won two awards.",
			map[string]string{"Vantan": "person"}},
		// initials after a bare "in" are no place (a place written as
		// initials takes the article); initials made plural are a kind of thing
		{"Gains were recorded in QRTX. Our PRSUs are held in QRTX, and sales rose in the UK. The use of QRTX and the release of QRTX grew.",
			map[string]string{"QRTX": "organization", "PRSUs": "concept", "UK": "location"}},
		// a preposition before a possessive governs what the name has:
		// "outside X's coverage area" says nothing of X's kind
		{"Calls outside Torvane's coverage area roam. Plans in Torvane's network differ, and Torvane Wireless, Inc. bills them.",
			map[string]string{"Torvane": "organization"}},
		// "the seller of protection" is a party's role, a company's as
		// often as a person's: it does not outweigh a legal form
		{"Kestrel Arden is the seller of protection. Kestrel Arden is the purchaser of the notes. Kestrel Arden, Inc. pays.",
			map[string]string{"Kestrel Arden": "organization"}},
	}
	for _, c := range cases {
		got := entityTypes(offlineOf(c.text))
		for name, typ := range c.want {
			if got[name] != typ {
				t.Errorf("%q: %s is %q, want %q (all: %v)", c.text, name, got[name], typ, got)
			}
		}
	}
}

// A bracket after a name is its alias only when it abbreviates the name or
// writes it in another script: an affiliation or a country is a name of
// its own.
func TestOfflineBracketAliases(t *testing.T) {
	r := offlineOf("The mayor is Ansel Treve (Harbour Party). The Office of Tidal Works (OTW) met in Dravik (Ostmark).")
	for _, e := range r.Entities {
		switch e.Name {
		case "Ansel Treve", "Dravik":
			if len(e.Aliases) > 0 {
				t.Errorf("%s has aliases %v", e.Name, e.Aliases)
			}
		case "Office of Tidal Works":
			if len(e.Aliases) != 1 || e.Aliases[0] != "OTW" {
				t.Errorf("%s has aliases %v, want OTW", e.Name, e.Aliases)
			}
		}
	}
	got := entityTypes(r)
	for _, name := range []string{"Harbour Party", "Ostmark"} {
		if _, ok := got[name]; !ok {
			t.Errorf("%s is no entity of its own: %v", name, got)
		}
	}
}

// A post alone ("Vice President", "Chief Executive Officer") is a common
// noun anyone may hold, no entity; with what it is a post of, it is one.
func TestOfflinePostsAreNoNames(t *testing.T) {
	got := entityTypes(offlineOf("The Vice President of Finance, Orla Venn, signed the report for the Chief Executive Officer. " +
		"Tomas Brell became Senior Vice President in 2019."))
	for _, post := range []string{"Chief Executive Officer", "Senior Vice President"} {
		if _, ok := got[post]; ok {
			t.Errorf("%q is an entity: %v", post, got)
		}
	}
	if got["Vice President of Finance"] != "concept" || got["Tomas Brell"] != "person" {
		t.Errorf("entities %v", got)
	}
}

// Dates, amounts, percentages and quantities are no entities; a possessive
// is no part of a name; a capitalised common noun after "a" is no name; a
// surname alone is a mention of the full name.
func TestOfflineNoValuesNoPossessives(t *testing.T) {
	r := offlineOf("Harlow Minting paid $4.5 million, 12% of its budget, on 3 March 2011 for 40 hectares. " +
		"Harlow Minting’s founder, Edda Vrane, was a Director of the fund. Vrane retired in 2015.")
	got := entityTypes(r)
	for _, bad := range []string{"$4.5 million", "12%", "3 March 2011", "40 hectares", "2015", "Harlow Minting’s", "Director", "Vrane"} {
		if _, ok := got[bad]; ok {
			t.Errorf("%q is an entity: %v", bad, got)
		}
	}
	for _, e := range r.Entities {
		if e.Name == "Edda Vrane" {
			if e.Type != "person" || len(e.Mentions) != 2 {
				t.Errorf("Edda Vrane: %+v", e)
			}
		}
	}
	if _, ok := got["Harlow Minting"]; !ok {
		t.Errorf("the possessor lost: %v", got)
	}
	// the values are facts of the sentence's subject, with their spans
	for _, e := range r.Entities {
		if e.Name != "Harlow Minting" {
			continue
		}
		var vs []string
		for _, v := range e.Values {
			vs = append(vs, v.Kind+":"+v.Text)
			if v.Source.CharEnd-v.Source.CharStart != len(v.Text) {
				t.Errorf("value %q has span %+v", v.Text, v.Source)
			}
		}
		if strings.Join(vs, " ") != "money:$4.5 million percent:12% date:3 March 2011 quantity:40 hectares" {
			t.Errorf("values of Harlow Minting: %v", vs)
		}
	}
}

// Relations are what a sentence states: its subject and what its verb
// reaches, neighbours joined by a phrase or a preposition, places listed
// with commas; the rest is co-occurrence.
func TestOfflineStatedRelations(t *testing.T) {
	r := offlineOf("Tomas Verhoek (born 1950 in Dunmarsh) is a Kestrian painter. " +
		"He studied at the Orvale Academy in Brelloc, Welmshire. Mira Osterfeld and Jonah Pell met Tomas Verhoek.")
	type edge struct{ s, p, o string }
	var stated []edge
	for _, rel := range r.Relations {
		if rel.Predicate == relphrase.CoOccurs {
			continue
		}
		stated = append(stated, edge{r.Entities[rel.Subject].Name, rel.Predicate, r.Entities[rel.Object].Name})
		if !strings.Contains(rel.Statement, r.Entities[rel.Object].Name) {
			t.Errorf("statement %q does not name the object", rel.Statement)
		}
	}
	want := []edge{
		{"Tomas Verhoek", "born in", "Dunmarsh"},
		{"Tomas Verhoek", "is painter", "Kestrian"}, // the lead sentence names the noun the name qualifies
		{"Tomas Verhoek", "studied at", "Orvale Academy"},
		{"Orvale Academy", "in", "Brelloc"},
		{"Brelloc", "located in", "Welmshire"},
		{"Mira Osterfeld", "met", "Tomas Verhoek"},
		{"Jonah Pell", "met", "Tomas Verhoek"},
	}

	for _, w := range want {
		found := false
		for _, e := range stated {
			found = found || e == w
		}
		if !found {
			t.Errorf("missing %v in %v", w, stated)
		}
	}
	for _, e := range stated {
		if e.s == "Mira Osterfeld" && e.o == "Jonah Pell" {
			t.Errorf("a list is no relation: %v", e)
		}
	}
}

func TestVerbPhrase(t *testing.T) {
	cases := []struct {
		between, want string
		ok            bool
	}{
		{" was born in ", "was born in", true},
		{" (born 4 May 1950 in ", "born in", true},
		{" (1911 – 1971) was an American songwriter, educated at ", "was songwriter at", true},
		{" also won the ", "also won", true},
		{" and ", "", false},
		{"; the next year ", "", false},
		{" was the son of Castor and grew up in ", "", false},
		{" , the capital of ", "", false},
	}
	for _, c := range cases {
		got, ok := verbPhrase(c.between)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("verbPhrase(%q) = %q %v, want %q %v", c.between, got, ok, c.want, c.ok)
		}
	}
}

// Coordination carries a stated relation to each conjunct.
func TestOfflineConjuncts(t *testing.T) {
	cases := []struct {
		text string
		want [][3]string
	}{
		{"Tessel Moor was written by Doran Veil and Mott Sharne.",
			[][3]string{{"Tessel Moor", "was written by", "Doran Veil"}, {"Tessel Moor", "was written by", "Mott Sharne"}}},
		{"Harl Benno studied in Quenfort, Vessa, and Dunmarsh.",
			[][3]string{{"Harl Benno", "studied in", "Quenfort"}, {"Harl Benno", "studied in", "Vessa"}, {"Harl Benno", "studied in", "Dunmarsh"}}},
	}
	for _, c := range cases {
		r := offlineOf(c.text)
		got := map[[3]string]bool{}
		for _, rel := range r.Relations {
			if rel.Predicate != relphrase.CoOccurs {
				got[[3]string{r.Entities[rel.Subject].Name, rel.Predicate, r.Entities[rel.Object].Name}] = true
			}
		}
		for _, w := range c.want {
			if !got[w] {
				t.Errorf("%q: missing %v in %v", c.text, w, got)
			}
		}
	}
}

// A place noun between two names states the second is in the first: "the
// Kestrian province of Ulvany".
func TestOfflinePlaceOf(t *testing.T) {
	r := offlineOf("Orvale lies in the Kestrian province of Ulvany.")
	for _, rel := range r.Relations {
		if r.Entities[rel.Subject].Name == "Ulvany" && rel.Predicate == "located in" && r.Entities[rel.Object].Name == "Kestrian" {
			return
		}
	}
	t.Errorf("Ulvany located in Kestrian missing: %+v", r.Relations)
}

// statedEdges are the relations of r that a sentence states (no
// co-occurrence), as subject, predicate, object names.
func statedEdges(r Result) map[[3]string]bool {
	got := map[[3]string]bool{}
	for _, rel := range r.Relations {
		if rel.Predicate != relphrase.CoOccurs {
			got[[3]string{r.Entities[rel.Subject].Name, rel.Predicate, r.Entities[rel.Object].Name}] = true
		}
	}
	return got
}

// The lead sentence defines the document's subject: every name its
// description holds is stated of it; a "The film …" or "It …" sentence later
// talks about it; another name of the subject is no relation.
func TestOfflineLeadAndDocumentSubject(t *testing.T) {
	text := "Harrow Lane\n\nHarrow Lane (formerly Quill Street) is a 1994 Kestrian drama film directed by Sefa Holm, starring Mira Osterfeld and Jonah Pell. " +
		"Osterfeld had met Holm in Brelloc. The film was produced by Quellmark Pictures. It premiered at the Dunmarsh Festival."
	r := ExtractOffline(Input{Chunk: kb.Chunk{ID: 1, DocID: 1, PageStart: 1, PageEnd: 1, CharEnd: len(text), Text: text}, DocTitle: "Harrow Lane"})
	got := statedEdges(r)
	for _, w := range [][3]string{
		{"Harrow Lane", "is film", "Kestrian"},
		{"Harrow Lane", "directed by", "Sefa Holm"},
		{"Harrow Lane", "starring", "Mira Osterfeld"},
		{"Harrow Lane", "starring", "Jonah Pell"},
		{"Harrow Lane", "was produced by", "Quellmark Pictures"},
		{"Harrow Lane", "premiered at", "Dunmarsh Festival"},
	} {
		if !got[w] {
			t.Errorf("missing %v in %v", w, got)
		}
	}
	for e := range got {
		if e[2] == "Quill Street" || e[0] == "Quill Street" {
			t.Errorf("another name of the subject is no relation: %v", e)
		}
	}
	// a sentence that is not the lead states only what its verb reaches
	r = offlineOf("The race ended. Tessa Brund, Orvale and Quenfort were mentioned in the Varn Gazette.")
	for e := range statedEdges(r) {
		if e[0] == "Tessa Brund" && e[2] == "Orvale" {
			t.Errorf("a list in a later sentence is no relation: %v", e)
		}
	}
}

func TestLeadPredicate(t *testing.T) {
	cases := []struct{ between, after, want string }{
		{" is a 1994 film directed by ", "", "directed by"},
		{" (born 1950) is an ", " singer from Orvale", "is singer"},
		{" (born 1950) is a Kestrian singer from ", "", "singer from"},
		{" is a mountain pass in the ", "", "pass in"},
		{" was a member of the ", " band", "member of"},
		{" is a film starring ", "", "starring"},
	}
	for _, c := range cases {
		if got := leadPredicate(c.between, c.after); got != c.want {
			t.Errorf("leadPredicate(%q, %q) = %q, want %q", c.between, c.after, got, c.want)
		}
	}
}

// A chain of places is each in every later one; a list of places is no
// chain; a people's adjective before a class noun and a name says the name
// is of that people.
func TestOfflinePlaceChainsAndDemonyms(t *testing.T) {
	r := offlineOf("The race ended. The pass lies in the Varn Hills of central Welmshire in Kestria. The song is by Kestrian rapper and singer Tova Renn. " +
		"The race later visited Orvale, Quenfort, Dunmarsh and Vessa. The prize went to the Kestrian folk band Harl Benno. " +
		"Its riders came from Brannoch, Tessaly, Kerrow, and other towns of the coast. " +
		"Its judges came from Harrow, Lindel, Osmet, other valleys and the hills. The pass lies in Carth, Welmshire, Kestria, where it rains.")
	got := statedEdges(r)
	for _, w := range [][3]string{
		{"Varn Hills", "located in", "Kestria"},
		{"Carth", "located in", "Welmshire"}, // a chain ended by a clause stays a chain
		{"Harl Benno", "is band", "Kestrian"},
		{"Tova Renn", "is singer", "Kestrian"},
	} {
		if !got[w] {
			t.Errorf("missing %v in %v", w, got)
		}
	}
	for e := range got {
		if e[1] == "located in" && (e[0] == "Orvale" || e[0] == "Quenfort" || e[0] == "Dunmarsh" || e[0] == "Brannoch" || e[0] == "Tessaly" || e[0] == "Kerrow" || e[0] == "Harrow" || e[0] == "Lindel") {
			t.Errorf("a list is no chain: %v", e)
		}
	}
}

// A life span's places in the lead's bracket are where the subject was born
// and died; a name after "(" or "Language:" is another name of it.
func TestOfflineLeadBracket(t *testing.T) {
	text := "Edda Morrel\n\nEdda Morrel (Quenforth: Eda Morl; 2 June 1663, Vessa, Kestria – May 1719, Dunmarsh) was a Kestrian writer."
	r := ExtractOffline(Input{Chunk: kb.Chunk{ID: 1, DocID: 1, PageStart: 1, PageEnd: 1, CharEnd: len(text), Text: text}})
	got := statedEdges(r)
	for _, w := range [][3]string{
		{"Edda Morrel", "born in", "Vessa"},
		{"Edda Morrel", "born in", "Kestria"},
		{"Edda Morrel", "died in", "Dunmarsh"},
	} {
		if !got[w] {
			t.Errorf("missing %v in %v", w, got)
		}
	}
	for e := range got {
		if e[2] == "Eda Morl" {
			t.Errorf("another name of the subject is no relation: %v", e)
		}
	}
}

// A name mentioned more often than its mentions are recorded still takes
// part in the relations of every sentence that names it.
func TestOfflineRelationsBeyondRecordedMentions(t *testing.T) {
	text := strings.Repeat("Tessa Brund wrote. ", maxMentionsPerName+1) + "Tessa Brund founded the Orvale Academy."
	r := offlineOf(text)
	if !statedEdges(r)[[3]string{"Tessa Brund", "founded", "Orvale Academy"}] {
		t.Errorf("relation of a late mention missing: %v", statedEdges(r))
	}
}

// A title line the text names again is a name (its qualifier left out),
// and the subject of the lead.
func TestOfflineTitleLine(t *testing.T) {
	text := "Quill & Harrow (band)\nQuill & Harrow is a Kestrian folk band from Orvale."
	r := offlineOf(text)
	if !statedEdges(r)[[3]string{"Quill & Harrow", "band from", "Orvale"}] {
		t.Errorf("title line as the lead's subject missing: %v", statedEdges(r))
	}
	for _, c := range []struct{ text, want string }{
		{"Harrow Lane (film)\nHarrow Lane is a film.", "Harrow Lane"},
		{"The Orvale Academy\n\nIt was founded.", "The Orvale Academy"},
		{"Harrow Lane is a film.\nMore text.", ""},
		{"the list of names\nMore.", ""},
		{"Harrow Lane, Orvale,\nMore.", ""},
	} {
		if got := titleLine(c.text); got != c.want {
			t.Errorf("titleLine(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// "New", or an ordinal, opening a name inside a sentence is part of it.
func TestOfflineNewInName(t *testing.T) {
	r := offlineOf("Tessa Brund was born in the Bronx, New Kestria, and wrote for the New Orvale Times during the Second Varn War. New rules applied. First Tessa left.")
	names := map[string]bool{}
	for _, e := range r.Entities {
		names[e.Name] = true
	}
	for _, w := range []string{"New Kestria", "New Orvale Times", "Second Varn War"} {
		if !names[w] {
			t.Errorf("missing %q in %v", w, names)
		}
	}
	if names["New"] {
		t.Errorf("a sentence's opening adjective is no name: %v", names)
	}
}

// A company's legal form after a name types it an organisation, whatever
// else the sentence says of it.
func TestLegalFormTypesAnOrganisation(t *testing.T) {
	for _, text := range []string{
		"Brimfield, Inc. reported its results for the year, and employees in Brimfield were paid more.",
		"The notes were issued by Harlow Tenby & Co. in 2019 and are held in Harlow Tenby accounts.",
		"Vanto AG said the plant in Ulm would close.",
	} {
		r := ExtractOffline(Input{Chunk: chunkOf(text, 0)})
		found := false
		for _, e := range r.Entities {
			if e.Name == "Brimfield" || e.Name == "Harlow Tenby" || e.Name == "Vanto" || e.Name == "Vanto AG" {
				found = true
				if e.Type != "organization" {
					t.Errorf("%q: %s typed %s", text, e.Name, e.Type)
				}
			}
		}
		if !found {
			t.Errorf("%q: no entity for the company: %+v", text, r.Entities)
		}
	}
}

// A surname alone is a person's when another passage of the document
// writes the full name (and only one full name ends with it); a word the
// chunk's own names decide, or two full names share, is left to them.
func TestOfflineSurnameFromTheDocument(t *testing.T) {
	sur := DocSurnames("Peter William Vance (1947 – 1975) was a Kestrian singer. Anna Brell and Tomas Brell sang with him.",
		"Pete Vance recorded it.")
	if sur["Vance"] != 2 || sur["Brell"] != 2 {
		t.Fatalf("DocSurnames %v", sur)
	}
	sur = DocSurnames("Peter William Vance (1947 – 1975) was a Kestrian singer. Anna Brell and Tomas Brell sang with him.")
	text := "Later that year Vance recorded the song with Brell."
	r := ExtractOffline(Input{Chunk: kb.Chunk{ID: 2, DocID: 1, Text: text, CharEnd: len(text)}, DocSurnames: sur})
	got := entityTypes(r)
	if got["Vance"] != "person" {
		t.Errorf("Vance is %q, want person (%v)", got["Vance"], got)
	}
	if got["Brell"] == "person" {
		t.Errorf("Brell, which two names end with, is typed person: %v", got)
	}
}
