package reason

import (
	"fmt"

	"cairn/backend/kb"
)

// The reasoning path of an answer read from a table is the table itself:
// what the figure was read from and how, each step cited by its row, not
// the graph's or the sentences' paths (which join other names of the
// passages and say nothing of the figure).

// tablePaths draws the figure's reading: for a formula, each operand's row
// to the figure it enters (through the row of another table that named it,
// when one did); for a ranking, the table to the row that ranks first; for
// cells, the table to the row and the row to each cell. Nil when the answer
// is read from no table.
func tablePaths(question string, g *gathered) []kb.Path {
	var out []kb.Path
	switch {
	case g.stated != nil:
		sf := g.stated
		target := sf.f.Target
		if sf.year != 0 {
			target = fmt.Sprintf("%s %d", target, sf.year)
		}
		seen := map[string]bool{}
		for i, c := range sf.cells {
			src := citation(sf.from[i], c.start, c.end).Source
			step := kb.PathEdge{From: c.Label, To: target, Predicate: cellStep(c), Source: src}
			p := kb.Path{Score: 1, Kind: KindTable, Nodes: []string{c.Label, target}, Edges: []kb.PathEdge{step}}
			if c.Via != "" {
				p.Nodes = []string{c.Via, c.Label, target}
				p.Edges = []kb.PathEdge{{From: c.Via, To: c.Label, Predicate: "prints the same figures as", Source: src}, step}
			}
			if key := fmt.Sprint(p.Nodes, step.Predicate); !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	case g.ranked != nil:
		rc := g.ranked
		src := citation(g.evidence[rc.ev], rc.start, rc.end).Source
		table := tableName(g.evidence[rc.ev])
		out = append(out, kb.Path{Score: 1, Kind: KindTable, Nodes: []string{table, rc.Label},
			Edges: []kb.PathEdge{{From: table, To: rc.Label, Predicate: fmt.Sprintf("%s · %s", rc.rank(), cellStep(rc.foundCell)), Source: src}}})
	case len(g.cells) > 0:
		c := g.cells[0]
		src := citation(g.evidence[c.ev], c.start, c.end).Source
		table := tableName(g.evidence[c.ev])
		p := kb.Path{Score: 1, Kind: KindTable, Nodes: []string{table, c.Label}, Edges: []kb.PathEdge{{From: table, To: c.Label, Predicate: "row", Source: src}}}
		if c.Via != "" {
			p.Nodes = []string{table, c.Via, c.Label}
			p.Edges = []kb.PathEdge{{From: table, To: c.Via, Predicate: "row", Source: src}, {From: c.Via, To: c.Label, Predicate: "prints the same figures as", Source: src}}
		}
		for _, x := range g.cells {
			p.Nodes = append(p.Nodes, x.Value)
			p.Edges = append(p.Edges, kb.PathEdge{From: p.Nodes[len(p.Nodes)-2], To: x.Value, Predicate: columnName(x.Column), Source: src})
		}
		out = append(out, p)
	}
	return out
}

// cellStep is a cell as a path's step: its column and value ("2020:
// 3,676.2").
func cellStep(c foundCell) string {
	if c.Column == "" {
		return c.Value
	}
	return fmt.Sprintf("%s: %s", c.Column, c.Value)
}

// columnName is a column as a step's label ("in 2020"; "value" when the
// column has no head).
func columnName(col string) string {
	if col == "" {
		return "value"
	}
	return col
}

// tableName is what a table is called in a path: the heading its passage
// stands under, else its document's title.
func tableName(e Evidence) string {
	if h := lastHeading(e.Hit.HeadingPath); h != "" {
		return kb.OneLine(h)
	}
	return e.Hit.DocTitle
}
