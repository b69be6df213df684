package mcpserver

import (
	"fmt"
	"strings"

	"cairn/backend/kb"
	"cairn/backend/llm"
)

// The readable content of a result (what a client shows its model when it
// ignores structured content). Every piece of document text is inside a
// <document_text> fence that it cannot close or break out of.

const (
	fenceOpen  = "<document_text"
	fenceClose = "</document_text>"
)

// fenceBreakers are what document text could use to end its fence or open
// another one; each becomes a look-alike that reads as plain text.
var fenceBreakers = strings.NewReplacer("<document_text", "‹document_text", "</document_text", "‹/document_text", "<DOCUMENT_TEXT", "‹DOCUMENT_TEXT", "</DOCUMENT_TEXT", "‹/DOCUMENT_TEXT")

// defuse makes document text safe inside a fence: no fence tags, no chat
// template markup (llm.DefuseChatMarkup).
func defuse(s string) string {
	for i := 0; i < 4; i++ {
		t := llm.DefuseChatMarkup(fenceBreakers.Replace(s))
		if t == s {
			break
		}
		s = t
	}
	return s
}

// fenced quotes document text with where it came from.
func fenced(src Source, text string) string {
	where := fmt.Sprintf("doc %d, %s, chars %d-%d, passage %d", src.DocID, pagesText(src.PageStart, src.PageEnd), src.CharStart, src.CharEnd, src.ChunkID)
	if src.PrintedPage != "" {
		where += ", printed page " + src.PrintedPage
	}
	// A page break (form feed) reads as a blank line here; the JSON text
	// keeps the exact span.
	text = strings.ReplaceAll(text, "\f", "\n\n")
	return fmt.Sprintf("%s source=%q title=%q>\n%s\n%s", fenceOpen, where, defuse(kb.OneLine(src.DocTitle)), defuse(text), fenceClose)
}

func renderPassages(head string, ps []Passage) string {
	var b strings.Builder
	b.WriteString(head + ". " + DataNotice + "\n")
	for i, p := range ps {
		fmt.Fprintf(&b, "\n[%d] %s\n", i+1, fenced(p.Source, p.Text))
	}
	return b.String()
}

func renderAnswer(a AskOut) string {
	var b strings.Builder
	switch {
	case a.Declined:
		b.WriteString("Declined: the documents do not answer this question.\n")
	case a.Outcome == kb.OutcomeEvidence:
		b.WriteString("Evidence only: the cited passages are about this question, but no answer could be formed from them without a model.\n")
	}
	fmt.Fprintf(&b, "Answer (%s mode, %s", a.Mode, a.Model)
	if a.Fallback != "" {
		b.WriteString("; " + a.Fallback)
	}
	// The answer is written from the passages (by the model or
	// extractively), so it is fenced like them.
	fmt.Fprintf(&b, "):\n%s answer=\"cairn\">\n%s\n%s\n\n%s\n", fenceOpen, defuse(a.Answer), fenceClose, DataNotice)
	if len(a.Citations) > 0 {
		if a.Declined {
			b.WriteString("\nClosest passages:\n")
		} else if a.Outcome == kb.OutcomeEvidence {
			b.WriteString("\nPassages about the question:\n")
		} else {
			b.WriteString("\nCitations:\n")
		}
	}
	for _, c := range a.Citations {
		fmt.Fprintf(&b, "[%d] %s\n", c.N, fenced(c.Source, c.Text))
	}
	if len(a.Paths) > 0 {
		b.WriteString("\nReasoning paths (most important first):\n")
	}
	for _, p := range a.Paths {
		var steps []string
		for _, e := range p.Steps {
			steps = append(steps, fmt.Sprintf("%s -[%s]-> %s (doc %d, %s, passage %d)", defuse(e.From), defuse(e.Predicate), defuse(e.To),
				e.Source.DocID, pagesText(e.Source.PageStart, e.Source.PageEnd), e.Source.ChunkID))
		}
		fmt.Fprintf(&b, "- %.2f %s\n", p.Score, strings.Join(steps, "; "))
	}
	return b.String()
}

func renderEntity(e EntityOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Entity %d (%s). %s\n%s source=\"knowledge graph\">\n%s", e.ID, e.Type, DataNotice, fenceOpen, defuse(e.Name))
	if e.Description != "" {
		b.WriteString(": " + defuse(e.Description))
	}
	if len(e.Aliases) > 0 {
		b.WriteString("\naliases: " + defuse(strings.Join(e.Aliases, "; ")))
	}
	fmt.Fprintf(&b, "\n%s\nmentioned %d times", fenceClose, e.MentionCount)
	for _, m := range e.Mentions {
		fmt.Fprintf(&b, "\n- doc %d, %s, chars %d-%d, passage %d", m.DocID, pagesText(m.PageStart, m.PageEnd), m.CharStart, m.CharEnd, m.ChunkID)
	}
	if len(e.Relations) > 0 {
		b.WriteString("\nrelations:\n")
	}
	for _, r := range e.Relations {
		src := Source{}
		if len(r.Sources) > 0 {
			src = r.Sources[0]
		}
		fmt.Fprintf(&b, "- %s -[%s]-> %s\n  %s\n", defuse(r.Subject), defuse(r.Predicate), defuse(r.Object), fenced(src, r.Statement))
	}
	return b.String()
}
