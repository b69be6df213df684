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
		{"Who is the spouse of the director of Leap for Morrow?", nil, "the director of Leap for Morrow", "Who is the director of Leap for Morrow?"},
		{"Who is the spouse of Raoul Vessey?", []string{"Raoul Vessey"}, "", ""},
		{"What is the name of the waterfall in the country where the Tessel River is found?", nil, "the country where the Tessel River is found", "Which country the Tessel River is found?"},
		{"Who was the first president of Varnajog's country?", nil, "Varnajog's country", "Which country of Varnajog?"},
		{"Which region is Dorian Vale's city of birth located?", nil, "Dorian Vale's city of birth", "Which city of birth of Dorian Vale?"},
		{"What year did the company Kestrel Coastal Airways is part of dissolve?", nil, "the company Kestrel Coastal Airways is part of", "Which company Kestrel Coastal Airways is part of?"},
		{"Who was in charge of the country Dhuurmaroole is located in?", nil, "the country Dhuurmaroole is located in", "Which country Dhuurmaroole is located in?"},
		{"What piece by the composer of Lisel und Lorenz is used as a cliché?", nil, "the composer of Lisel und Lorenz", "Who is the composer of Lisel und Lorenz?"},
		{"Who is the spouse of the person who voices Brannock in the Sentinels Age of Ember?", nil, "the person who voices Brannock in the Sentinels Age of Ember", "Who voices Brannock in the Sentinels Age of Ember?"},
		// The possessive inside the relative clause is the inner hop.
		{"How many stores are in the state where Goodbye Sun's performer died?", nil, "Goodbye Sun's performer", "Who is the performer of Goodbye Sun?"},
		// "the village of Ashbrook" is a name, not a relation.
		{"When did the country where the village of Ashbrook is located, become a member of CORALEX?", nil, "the country where the village of Ashbrook is located", "Which country the village of Ashbrook is located?"},
		{"When did the country where Pieter Holvaart was born refuse to surrender Veldmark?", nil, "the country where Pieter Holvaart was born", "Which country Pieter Holvaart was born?"},
		{"What is the name of the director of Leap for Morrow?", nil, "", ""},
		{"When did the country containing Velkaro leave the Osterran Empire?", nil, "the country containing Velkaro", "Which country containing Velkaro?"},
		{"What year did the Governor of the city where Lumen in Silvis' author died end?", nil, "Lumen in Silvis' author", "Who is the author of Lumen in Silvis?"},
		{"Who is the spouse of the actor who plays Hugo in Supper at Ravello's?", nil, "the actor who plays Hugo in Supper at Ravello's", "Who plays Hugo in Supper at Ravello's?"},
		{"When did B0 in which Ivo Cantrell is a citizen become part of the UK?", nil, "", ""},
		{"When did the country in which Ivo Cantrell is a citizen become part of the UK?", nil, "the country in which Ivo Cantrell is a citizen", "Which country Ivo Cantrell is a citizen?"},
		{"Who directed the film in which Kang Tae-rim made his big screen debut?", nil, "the film in which Kang Tae-rim made his big screen debut", "Which film Kang Tae-rim made his big screen debut?"},
		{"Who played the We'll Go Far singer in Cross the River?", nil, "the We'll Go Far singer", "Who is the singer of We'll Go Far?"},
		{"When did the state whose official sport is falconry make methodism its established religion?", nil, "the state whose official sport is falconry", "Which state whose official sport is falconry?"},
		{"When was Henry Ashdown, 9Th Earl Of Marlow's father born?", nil, "Henry Ashdown, 9Th Earl Of Marlow's father", "Who is the father of Henry Ashdown, 9Th Earl Of Marlow?"},
		{"Where was the place of death of Elvira Of Ostrand, Queen Of Varela's mother?", nil, "Elvira Of Ostrand, Queen Of Varela's mother", "Who is the mother of Elvira Of Ostrand, Queen Of Varela?"},
		// "titled" gives the album's name: no hop.
		{"The album titled Ile Ayo Wura by Tolani was produced by who?", nil, "", ""},
		{"Which film came out first, Cold Furrow or The Mask Of Lu Chen?", nil, "", ""},
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
