package answerspan

// GraphKinds turns the graph's entity types by name (retrieve.EntityKinds)
// into the classes a candidate name is weighed by ("person", "place",
// "work"), keyed as the finder keys names; types that say none of these
// (organisation, concept, other) are left out, so that the passage about
// the name decides for them as before.
func GraphKinds(types map[string]string) map[string]string {
	out := map[string]string{}
	for name, t := range types {
		var c string
		switch t {
		case "person":
			c = "person"
		case "location":
			c = "place"
		case "work":
			c = "work"
		default:
			continue
		}
		if k := norm(name); k != "" {
			out[k] = c
		}
	}
	return out
}
