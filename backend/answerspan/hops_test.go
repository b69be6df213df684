package answerspan

import (
	"testing"
)

func TestInnermost(t *testing.T) {
	cases := []struct {
		q      string
		known  []string
		phrase string
		ask    string
	}{
		{"Who is the spouse of the director of Jump for Glory?", nil, "the director of Jump for Glory", "Who is the director of Jump for Glory?"},
		{"Who is the spouse of Raoul Walsh?", []string{"Raoul Walsh"}, "", ""},
		{"What is the name of the waterfall in the country where the Bubye River is found?", nil, "the country where the Bubye River is found", "Which country the Bubye River is found?"},
		{"Who was the first president of Damerjog's country?", nil, "Damerjog's country", "Which country of Damerjog?"},
		{"Which region is Corey Taylor's city of birth located?", nil, "Corey Taylor's city of birth", "Which city of birth of Corey Taylor?"},
		{"What year did the company Novair International Airways is part of dissolve?", nil, "the company Novair International Airways is part of", "Which company Novair International Airways is part of?"},
		{"Who was in charge of the country Ceelmakoile is located in?", nil, "the country Ceelmakoile is located in", "Which country Ceelmakoile is located in?"},
		{"What piece by the composer of Bastien und Bastienne is used as a cliché?", nil, "the composer of Bastien und Bastienne", "Who is the composer of Bastien und Bastienne?"},
		{"Who is the spouse of the person who voices Jarvis in the Avengers Age of Ultron?", nil, "the person who voices Jarvis in the Avengers Age of Ultron", "Who voices Jarvis in the Avengers Age of Ultron?"},
		// The possessive inside the relative clause is the inner hop.
		{"How many stores are in the state where Hello Love's performer died?", nil, "Hello Love's performer", "Who is the performer of Hello Love?"},
		// "the village of Clonbrook" is a name, not a relation.
		{"When did the country where the village of Clonbrook is located, become a member of CARICOM?", nil, "the country where the village of Clonbrook is located", "Which country the village of Clonbrook is located?"},
		{"When did the country where Steven Blankaart was born refuse to surrender Namibia?", nil, "the country where Steven Blankaart was born", "Which country Steven Blankaart was born?"},
		{"What is the name of the director of Jump for Glory?", nil, "", ""},
		{"When did the country containing Nugegoda leave the British Empire?", nil, "the country containing Nugegoda", "Which country containing Nugegoda?"},
		{"What year did the Governor of the city where Pacem in Terris' author died end?", nil, "Pacem in Terris' author", "Who is the author of Pacem in Terris?"},
		{"Who is the spouse of the actor who plays Paul in Breakfast at Tiffany's?", nil, "the actor who plays Paul in Breakfast at Tiffany's", "Who plays Paul in Breakfast at Tiffany's?"},
		{"When did B0 in which Ivor Cutler is a citizen become part of the UK?", nil, "", ""},
		{"When did the country in which Ivor Cutler is a citizen become part of the UK?", nil, "the country in which Ivor Cutler is a citizen", "Which country Ivor Cutler is a citizen?"},
		{"Who directed the film in which Jung Joon-young made his big screen debut?", nil, "the film in which Jung Joon-young made his big screen debut", "Which film Jung Joon-young made his big screen debut?"},
		{"Who played the It'll Be Me singer in Walk the Line?", nil, "the It'll Be Me singer", "Who is the singer of It'll Be Me?"},
		{"When did the state whose official sport is jousting make anglicanism its established religion?", nil, "the state whose official sport is jousting", "Which state whose official sport is jousting?"},
		{"When was George Howard, 11Th Earl Of Carlisle's father born?", nil, "George Howard, 11Th Earl Of Carlisle's father", "Who is the father of George Howard, 11Th Earl Of Carlisle?"},
		{"Where was the place of death of Sancha Of Castile, Queen Of Navarre's mother?", nil, "Sancha Of Castile, Queen Of Navarre's mother", "Who is the mother of Sancha Of Castile, Queen Of Navarre?"},
		// "titled" gives the album's name: no hop.
		{"The album titled Omo Baba Olowo by Davido was produced by who?", nil, "", ""},
		{"Which film came out first, Blind Shaft or The Mask Of Fu Manchu?", nil, "", ""},
	}
	for _, c := range cases {
		in, ok := Innermost(c.q, c.known)
		if c.phrase == "" {
			if ok {
				t.Errorf("%q: phrase %q, want none", c.q, in.Phrase)
			}
			continue
		}
		if !ok || in.Phrase != c.phrase || in.Ask != c.ask {
			t.Errorf("%q:\n got %q / %q (%v)\nwant %q / %q", c.q, in.Phrase, in.Ask, ok, c.phrase, c.ask)
			continue
		}
		if c.q[in.Start:in.End] != in.Phrase {
			t.Errorf("%q: offsets %d-%d do not hold the phrase", c.q, in.Start, in.End)
		}
	}
}
