package llm

import "strings"

// chatMarkup are the sequences with which document text could pose as
// chat-template markup once a prompt is rendered for a model: special
// tokens such as <|im_start|>system or <|eot_id|>, Llama 2's [INST] and
// <<SYS>>. Each is replaced by a look-alike that tokenizes as plain text.
var chatMarkup = strings.NewReplacer(
	"<|", "‹|", "|>", "|›",
	"[INST]", "[INST\u200b]", "[/INST]", "[/INST\u200b]",
	"<<SYS>>", "‹‹SYS››", "<</SYS>>", "‹‹/SYS››",
)

// DefuseChatMarkup makes document text safe to quote in a prompt: it can no
// longer open a system turn or end the user's. Every prompt that carries
// text from a user's documents passes it through here (or through a fence
// that does).
func DefuseChatMarkup(s string) string {
	// Repeat until stable: removing one sequence can join two halves of
	// another ("<<|||>>").
	for i := 0; i < 4; i++ {
		t := chatMarkup.Replace(s)
		if t == s {
			break
		}
		s = t
	}
	return s
}
