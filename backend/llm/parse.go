package llm

import (
	"encoding/json"
	"errors"
	"strings"
)

// Parsing what small local models actually send back.
//
// Even with Ollama's `format` set, replies arrive wrapped in ways that break a
// plain json.Unmarshal: a <think>…</think> block from reasoning models (when
// the server does not split it off), a Markdown code fence, a sentence of
// prose before or after the object. ExtractJSON removes exactly those
// wrappers and nothing else: it never invents, closes or truncates JSON, so
// a reply cut in the middle stays an error (and triggers the repair call).

// thinkTags are the reasoning-block tags seen from local models.
var thinkTags = [][2]string{{"<think>", "</think>"}, {"<thinking>", "</thinking>"}, {"<reasoning>", "</reasoning>"}}

// StripThink removes reasoning blocks. An opening tag without its closing
// tag means the whole rest is reasoning (the model ran out of tokens while
// thinking), so it is dropped too.
func StripThink(s string) string {
	for _, tag := range thinkTags {
		for {
			i := indexFold(s, tag[0])
			if i < 0 {
				break
			}
			j := indexFold(s[i+len(tag[0]):], tag[1])
			if j < 0 {
				s = s[:i]
				break
			}
			s = s[:i] + s[i+len(tag[0])+j+len(tag[1]):]
		}
		// A stray closing tag with no opening one: the server split off
		// the opening tag; everything before it is reasoning.
		if j := indexFold(s, tag[1]); j >= 0 {
			s = s[j+len(tag[1]):]
		}
	}
	return s
}

func indexFold(s, sub string) int {
	if len(sub) == 0 {
		return 0
	}
	// Tags are ASCII, so a byte-wise case-insensitive search is exact.
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// ErrNoJSON says a reply held no JSON value at all.
var ErrNoJSON = errors.New("reply holds no JSON object")

// ExtractJSON returns the JSON value in a model reply: reasoning blocks and
// code fences removed, prose around one object or array ignored. The result
// is syntactically valid JSON or an error (ErrNoJSON when there is nothing
// that looks like JSON; a *json.SyntaxError-wrapping error when it is
// malformed or cut short).
func ExtractJSON(reply string) (json.RawMessage, error) {
	s := strings.TrimSpace(StripThink(reply))
	s = stripFence(s)
	if s == "" {
		return nil, ErrNoJSON
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s), nil
	}
	start := strings.IndexAny(s, "{[")
	if start < 0 {
		return nil, ErrNoJSON
	}
	end, ok := balancedEnd(s[start:])
	if !ok {
		// Unbalanced: report the decoder's own error on the cut value.
		var v any
		err := json.Unmarshal([]byte(s[start:]), &v)
		if err == nil {
			err = errors.New("unbalanced JSON")
		}
		return nil, &MalformedError{Err: err}
	}
	cand := s[start : start+end]
	var v any
	if err := json.Unmarshal([]byte(cand), &v); err != nil {
		return nil, &MalformedError{Err: err}
	}
	return json.RawMessage(cand), nil
}

// MalformedError wraps the decoding error of a reply that looked like JSON.
type MalformedError struct{ Err error }

func (e *MalformedError) Error() string { return "reply is not valid JSON: " + e.Err.Error() }
func (e *MalformedError) Unwrap() error { return e.Err }

// stripFence removes one surrounding Markdown code fence (``` or ```json).
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		if i := strings.Index(s, "```"); i >= 0 {
			// prose, then a fence: keep the fenced part
			rest := s[i:]
			if j := strings.Index(rest[3:], "```"); j >= 0 {
				return stripFence(strings.TrimSpace(rest[:j+6]))
			}
		}
		return s
	}
	body := s[3:]
	if nl := strings.IndexByte(body, '\n'); nl >= 0 {
		lang := strings.TrimSpace(body[:nl])
		if lang == "" || isWord(lang) {
			body = body[nl+1:]
		}
	}
	if j := strings.LastIndex(body, "```"); j >= 0 {
		body = body[:j]
	}
	return strings.TrimSpace(body)
}

func isWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// balancedEnd returns the length of the JSON object or array at the start of
// s, tracking strings and escapes, or false when it never closes.
func balancedEnd(s string) (int, bool) {
	depth := 0
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
			if depth < 0 {
				return 0, false
			}
		}
	}
	return 0, false
}

// thinkFilter removes reasoning blocks from a token stream, so streamed
// answers never show them. Tokens may split a tag anywhere.
type thinkFilter struct {
	pending strings.Builder // text not yet emitted (may hold a partial tag)
	inThink bool
	closeAt string
}

// push consumes one token and returns the text safe to emit now.
func (f *thinkFilter) push(tok string) string {
	f.pending.WriteString(tok)
	s := f.pending.String()
	var out strings.Builder
	for {
		if f.inThink {
			j := indexFold(s, f.closeAt)
			if j < 0 {
				// keep only a possible partial closing tag
				keep := partialSuffix(s, f.closeAt)
				s = s[len(s)-keep:]
				break
			}
			s = s[j+len(f.closeAt):]
			f.inThink = false
			continue
		}
		open, which := -1, 0
		for k, tag := range thinkTags {
			if i := indexFold(s, tag[0]); i >= 0 && (open < 0 || i < open) {
				open, which = i, k
			}
		}
		if open >= 0 {
			out.WriteString(s[:open])
			s = s[open+len(thinkTags[which][0]):]
			f.closeAt = thinkTags[which][1]
			f.inThink = true
			continue
		}
		keep := 0
		for _, tag := range thinkTags {
			keep = max(keep, partialSuffix(s, tag[0]))
		}
		out.WriteString(s[:len(s)-keep])
		s = s[len(s)-keep:]
		break
	}
	f.pending.Reset()
	f.pending.WriteString(s)
	return out.String()
}

// flush returns what is left at the end of the stream (a partial tag that
// never completed is plain text; an unclosed reasoning block is dropped).
func (f *thinkFilter) flush() string {
	if f.inThink {
		return ""
	}
	s := f.pending.String()
	f.pending.Reset()
	return s
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag (case-insensitive).
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.EqualFold(s[len(s)-n:], tag[:n]) {
			return n
		}
	}
	return 0
}
