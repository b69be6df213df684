package llm

import (
	"errors"
	"strings"

	"cairn/backend/kb"
)

// RepairPrompt is the user message of the one repair attempt: the model's
// previous reply is already in the conversation as an assistant turn; this
// says what was wrong with it and asks for the whole reply again. It is
// pinned by a golden file (testdata/repair_*.golden).
func RepairPrompt(problem error) string {
	var b strings.Builder
	b.WriteString("Your previous reply could not be used.\n")
	var se *SchemaError
	var me *MalformedError
	switch {
	case errors.As(problem, &se):
		b.WriteString("It is valid JSON but does not match the required schema:\n")
		for _, p := range se.Problems {
			b.WriteString("- " + p + "\n")
		}
	case errors.As(problem, &me):
		b.WriteString("It is not valid JSON (" + kb.OneLine(me.Err.Error()) + ").\n")
	case errors.Is(problem, ErrNoJSON):
		b.WriteString("It holds no JSON object.\n")
	default:
		b.WriteString("Problem: " + kb.OneLine(problem.Error()) + "\n")
	}
	b.WriteString("Reply again with the complete answer as a single JSON object that matches the schema. " +
		"Write no explanation, no Markdown and no code fences: only the JSON.")
	return b.String()
}
