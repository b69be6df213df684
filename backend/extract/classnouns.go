package extract

import "strings"

// classNouns are common nouns that say what kind of thing a name is when a
// sentence describes the name with them: "X is a city in …", "X, a
// Canadian guitarist, …", "the band X". They are a closed lexicon of class
// words (English), not names of anything; a head noun that is not listed
// is read by its ending (personNoun).
var classNouns = classNounTable()

// classNounTable maps each class noun to the type it describes (the first
// list that names a word wins).
func classNounTable() map[string]string {
	classNouns := map[string]string{}
	for _, tw := range [][2]string{
		{"location", `city town village country nation river lake mountain mount hill island archipelago region province state
			county district municipality suburb neighbourhood neighborhood capital area valley peninsula commune settlement
			park street road avenue hamlet parish borough territory airport station stadium arena bridge building tower
			castle palace square continent sea ocean bay coast desert forest canal port harbour harbor metropolis prefecture
			locality community township oblast voivodeship canton department mall glacier reservoir dam peak peaks bayou
			cape plain plateau gulf strait lagoon falls gorge cave beach resort plaza boulevard highway motorway
			lane quarter ward zone belt basin delta marsh estuary creek fjord reef atoll islet headland promontory volcano
			crater ridge summit oasis wetland moor heath empire kingdom republic caliphate sultanate duchy principality emirate
			hometown birthplace homeland governorate range ranges drive trail pond mansion manor cathedral basilica
			monastery shrine tramway heights waterfall`},
		{"organization", `company corporation firm band group team club party university college school organisation organization
			agency network label newspaper magazine publisher manufacturer airline bank association union league federation
			charity institute institution brand broadcaster retailer subsidiary conglomerate studio studios academy ministry
			government army navy regiment division unit council committee commission court church order orchestra choir
			ensemble duo trio quartet collective movement foundation society consortium cooperative franchise channel
			tabloid website developer operator carrier railway utility insurer lender fund trust pictures entertainment interactive records radio tv television
			legislature assembly parliament senate railroad elementary airways motors holdings industries systems force command
			communications pharmaceuticals therapeutics solutions brands airlines stores
			technologies laboratories labs ltd plc gmbh ag sa inc corp llc`},
		{"work", `album song single film movie novel book series game play opera episode show painting poem sitcom soundtrack
			documentary anthology comic manga anime ep mixtape musical ballet symphony sculpture journal newsletter report
			programme program drama miniseries telenovela`},
		{"event", `war battle election tournament championship championships festival competition season campaign revolution
			conference summit olympics games cup race siege uprising rebellion massacre earthquake hurricane storm`},
		{"person", `poet author artist actor actress singer writer composer director producer painter journalist scientist engineer
			lawyer judge king queen prince princess monk priest bishop saint general officer soldier chef model athlete coach
			wrestler boxer dancer rapper activist businessman businesswoman entrepreneur philosopher historian economist
			mathematician physicist chemist biologist architect diplomat statesman politician footballer cricketer player
			musician guitarist drummer pianist violinist bassist vocalist songwriter novelist playwright screenwriter
			filmmaker photographer sculptor designer inventor explorer emperor empress pope duke duchess earl count baron
			lord lady knight sultan pharaoh chief governor senator mayor minister president chancellor premier leader founder
			manager executive ceo chairman chairwoman professor teacher student doctor physician surgeon nurse
			missionary theologian scholar linguist critic commentator presenter host anchor comedian magician spy pilot
			astronaut sailor admiral captain colonel lieutenant sergeant major marshal jurist cardinal rabbi imam
			son daughter child father mother brother sister wife husband widow character person man woman boy girl`},
	} {
		typ, words := tw[0], tw[1]
		for _, w := range strings.Fields(words) {
			if _, ok := classNouns[w]; !ok {
				classNouns[w] = typ
			}
		}
	}
	return classNouns
}

// notPersonNouns end like a noun of a person ("-er", "-or") but name
// things.
var notPersonNouns = map[string]bool{"order": true, "border": true, "center": true, "centre": true, "chapter": true, "quarter": true,
	"corridor": true, "sector": true, "factor": true, "monitor": true, "theater": true, "theatre": true, "water": true, "power": true,
	"paper": true, "letter": true, "number": true, "computer": true, "cancer": true, "meter": true, "error": true, "motor": true,
	"indicator": true, "reactor": true, "color": true, "colour": true, "river": true, "tower": true, "newspaper": true, "corner": true,
	"shelter": true, "cluster": true, "register": true, "container": true, "printer": true, "carrier": true, "trailer": true,
	"format": true, "genre": true, "actor": false, "register's": true, "matter": true, "manner": true, "member": true, "summer": true,
	"winter": true, "mirror": true, "minor": true, "major": false, "junior": true, "senior": true, "interior": true, "exterior": true,
	"vector": true, "tractor": true, "elevator": true, "sensor": true, "processor": true, "transistor": true, "semester": true}

// irregularPlurals are the class nouns whose plural takes no -s.
var irregularPlurals = map[string]string{"children": "child", "men": "man", "women": "woman", "people": "person",
	"wives": "wife", "chairmen": "chairman", "businessmen": "businessman"}

// nounType is the type a class noun (singular or plural) describes, or ""
// when the word says nothing about a name's kind.
func nounType(w string) string {
	w = strings.ToLower(strings.Trim(w, ".,;:'’\""))
	if w == "" {
		return ""
	}
	if t, ok := classNouns[w]; ok {
		return t
	}
	if t, ok := classNouns[irregularPlurals[w]]; ok {
		return t
	}
	for _, suf := range []string{"ies", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
			stem := strings.TrimSuffix(w, suf)
			if suf == "ies" {
				stem += "y"
			}
			if t, ok := classNouns[stem]; ok {
				return t
			}
		}
	}
	if personNoun(w) {
		return "person"
	}
	return ""
}

// personNoun reads a noun of a person by its ending: "racer", "sculptor",
// "cellist", "comedian", "spokesman".
func personNoun(w string) bool {
	if notPersonNouns[w] || len(w) < 5 {
		return false
	}
	for _, suf := range []string{"er", "or", "ist", "ian", "man", "woman", "ess"} {
		if strings.HasSuffix(w, suf) {
			return !strings.HasSuffix(w, "eer") || w == "engineer" || w == "pioneer" || w == "volunteer" || w == "mountaineer"
		}
	}
	return false
}
