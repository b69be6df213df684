package llm

import (
	"regexp"
	"strings"
)

// Control-token text. A model (or its template) sometimes writes the text
// of a special token into its reply — "<|extra_4068|>", "<|im_end|>",
// "<|endoftext|>" — which is never part of an answer. StripSpecialTokens
// removes them from whole replies; specialFilter from a token stream.

// maxSpecialToken bounds the length of one control token's text.
const maxSpecialToken = 64

var specialToken = regexp.MustCompile(`<\|[A-Za-z0-9_.:/\-]{1,58}\|>`)

// StripSpecialTokens removes control-token text ("<|name|>") from a reply.
func StripSpecialTokens(s string) string {
	if !strings.Contains(s, "<|") {
		return s
	}
	return specialToken.ReplaceAllString(s, "")
}

// specialFilter removes control-token text from a stream whose pieces may
// split a token anywhere: text that may still become "<|…|>" is held back.
type specialFilter struct{ pending string }

func (f *specialFilter) push(piece string) string {
	s := f.pending + piece
	f.pending = ""
	var out strings.Builder
	for {
		i := strings.Index(s, "<|")
		if i < 0 {
			// a trailing "<" may open a token
			if strings.HasSuffix(s, "<") {
				out.WriteString(s[:len(s)-1])
				f.pending = "<"
			} else {
				out.WriteString(s)
			}
			return out.String()
		}
		out.WriteString(s[:i])
		s = s[i:]
		if loc := specialToken.FindStringIndex(s); loc != nil && loc[0] == 0 {
			s = s[loc[1]:]
			continue
		}
		j := strings.Index(s[2:], "|>")
		if j < 0 && len(s) < maxSpecialToken && !strings.ContainsAny(s, " \n\t") {
			f.pending = s // may still close
			return out.String()
		}
		// not a control token: emit "<|" and go on after it
		out.WriteString("<|")
		s = s[2:]
	}
}

func (f *specialFilter) flush() string {
	s := f.pending
	f.pending = ""
	return s
}
