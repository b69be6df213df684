package retrieve_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/search"
)

// bridgeCorpus is an invented corpus in the shape of a two-hop Wikipedia
// set: the gold pair of a "place of burial of X's father" question (X's
// passage names the father as "Eadric of Tessmark", the father's own
// passage is titled "Eadric") among 300 distractors that share its words —
// other kings with fathers and burial places, the sub-kingdom the question
// names, films, villages and bands.
func bridgeCorpus() (corpus []evalset.Passage, question string, gold []string) {
	gold = []string{"g1", "g2"}
	corpus = []evalset.Passage{
		{ID: "g1", Title: "Aldwine of Venmora", Text: "Aldwine (c. 655–676) was the King of Venmora from 668 to 676. " +
			"He was a son of Eadric of Tessmark and a brother of Cynric of Tessmark. " +
			"When Eadric died in 668 and Cynric succeeded him as king of Tessmark, Cynric made Aldwine king of the sub-kingdom of Venmora. " +
			"Aldwine was still a boy at the time, and the title may have been meant to mark him as the heir of the childless Cynric. " +
			"He was, however, killed in battle against the Harlings at the Battle of the Varn in 676. " +
			"Peace was kept when King Osmund of the Harlings paid a blood price to Cynric for Aldwine's death."},
		{ID: "g2", Title: "Eadric", Text: "Eadric, also known as Eadda (c. 608 – 11 March 668), was King of Tessmark from 640 until his death. " +
			"One of the sons of Wulfhere of Brannock, Eadric became king after his brother Osbald was killed in 640. " +
			"He raised his sons in the faith and founded a number of monasteries, including Gillow Abbey and Harrowby Abbey. " +
			"In 661 he presided over the Council of Harrowby. " +
			"Eadric died in 668 and was buried at Harrowby Abbey; he was succeeded by his son, Cynric."},
		{ID: "v1", Title: "Venmora", Text: "Venmora was a sub-kingdom on the eastern coast, ruled by kings of its own until it was joined to Tessmark. Its kings were buried at Calder Minster."},
	}
	given := []string{"Berthold", "Ansel", "Corwin", "Dagny", "Elric", "Faramund", "Gisela", "Hadric", "Ingmar", "Jorund", "Kelda", "Leofric", "Marwen", "Norbert", "Odile", "Perrin", "Quillon", "Rowena", "Sigrun", "Tobin", "Ulric", "Vesna", "Wendel"}
	family := []string{"Ashgrove", "Blackmere", "Coldbrook", "Dunhallow", "Elmsworth", "Fernhollow", "Greyhaven", "Hollowell", "Ivesby", "Kettlewick", "Larkmoor", "Millbrake", "Northcott", "Oakhurst", "Pellbury", "Quarrington", "Redfern", "Stonegate", "Thistlebury"}
	realm := []string{"Ardmoor", "Brennock", "Caldria", "Dunvale", "Eskmere", "Fallowmark", "Glenhaven", "Hartwold", "Isenmark", "Kelvard", "Lowenmark"}
	town := []string{"Ambleford", "Birchcombe", "Crowhythe", "Dallowby", "Eastwick Fen", "Fordingley", "Gorsebridge", "Hatherby", "Inchmarrow", "Kilbrandon", "Lintmouth", "Marrowby", "Nethercott"}
	role := []string{"painter", "bishop", "poet", "general", "composer", "judge", "merchant", "architect"}
	film := []string{"Lantern", "Harvest", "Winter", "Tide", "Orchard", "Mirror", "Crossing", "Signal", "Ember", "Meadow"}
	name := func(i int) string { return given[i%len(given)] + " " + family[(i/len(given)+i)%len(family)] }
	for i := 0; i < 300; i++ {
		y := 600 + (i*37)%1300
		var title, text string
		switch i % 5 {
		case 0:
			title = name(i)
			text = fmt.Sprintf("%s (%d – %d) was a %s. He was born in %s and died in %s. His father was %s, and he was buried at %s Abbey.",
				title, y, y+40+i%30, role[i%len(role)], town[i%len(town)], town[(i+5)%len(town)], name(i+7), town[(i+3)%len(town)])
		case 1:
			r := realm[i%len(realm)]
			title = fmt.Sprintf("%s of %s", given[(i+3)%len(given)], r)
			text = fmt.Sprintf("%s was King of %s from %d. He was a son of %s of %s. He died in %d and his place of burial was %s Minster.",
				given[(i+3)%len(given)], r, y, given[(i+11)%len(given)], r, y+20, town[i%len(town)])
		case 2:
			title = fmt.Sprintf("The %s of %s", film[i%len(film)], town[(i+1)%len(town)])
			text = fmt.Sprintf("%s is a %d drama film directed by %s. It was shot in %s.", title, 1920+i%90, name(i+2), town[(i+4)%len(town)])
		case 3:
			title = fmt.Sprintf("%s %d", town[i%len(town)], i)
			text = fmt.Sprintf("%s %d is a village in %s. Its church holds the grave of %s, whose father founded the village.", town[i%len(town)], i, realm[(i+2)%len(realm)], name(i+9))
		default:
			title = fmt.Sprintf("The %s %ss", town[i%len(town)], film[(i+3)%len(film)])
			text = fmt.Sprintf("%s is a rock band from %s formed in %d. Its singer is %s.", title, town[(i+6)%len(town)], 1960+i%60, name(i+4))
		}
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("d", i), Title: title, Text: text})
	}
	return corpus, "Where was the place of burial of Aldwine Of Venmora's father?", gold
}

// TestTopicListFindsTheBridgePassage: on an invented two-hop corpus indexed
// offline, a bridge question ("the father of X") names only X; X's passage
// names the father, and the topic list ranks the father's own passage
// (titled by his name) near the top, and the fused top 5 holds both gold
// passages.
func TestTopicListFindsTheBridgePassage(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 300 passages")
	}
	corpus, asked, gold := bridgeCorpus()
	var bridge string // the gold passage whose title the question does not name
	for _, p := range corpus {
		if (p.ID == gold[0] || p.ID == gold[1]) && !strings.Contains(kb.NormKey(asked), kb.NormKey(p.Title)) {
			bridge = p.ID
		}
	}
	if bridge != "g2" {
		t.Fatalf("bridge passage %q, want g2", bridge)
	}
	ctx := context.Background()
	p, err := evalset.BuildProject(ctx, t.TempDir(), corpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ids := func(chunks []int64) []string {
		hits, err := p.Store().ChunkHits(ctx, chunks)
		if err != nil {
			t.Fatal(err)
		}
		out, err := evalset.PassageIDs(ctx, p.Store(), hits)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	s := &search.Searcher{Store: p.Store(), Embedder: p.Embedder(), Settings: search.DefaultSettings()}
	passHits, err := s.Search(ctx, asked, 5)
	if err != nil {
		t.Fatal(err)
	}
	passOnly, err := evalset.PassageIDs(ctx, p.Store(), passHits)
	if err != nil {
		t.Fatal(err)
	}
	r := retrieve.New(p.Store(), p.Embedder())
	res, err := r.Retrieve(ctx, question.New(asked), 5)
	if err != nil {
		t.Fatal(err)
	}
	var topic []string
	for _, l := range res.Lists {
		if l.Name == "topic" {
			topic = ids(l.IDs)
		}
	}
	full, err := evalset.PassageIDs(ctx, p.Store(), res.Hits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("passage search %v, topic list %v, fused %v, gold %v", passOnly, topic, full, gold)
	if evalset.Recall(topic, []string{bridge}, 3) < 1 {
		t.Errorf("topic list's top 3 %v miss the bridge passage %s", topic, bridge)
	}
	if got := evalset.Recall(full, gold, 5); got < 1 {
		t.Errorf("fused top 5 %v hold %.0f%% of the gold %v", full, 100*got, gold)
	}
	if evalset.Recall(passOnly, gold, 5) == 1 {
		t.Logf("note: passage search alone already finds both gold passages here")
	}
}
