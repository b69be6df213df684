package app

import (
	"errors"
	"strings"
	"sync"

	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/reason"
)

// Answers: Ask streams the answer's text as EventAskToken events while the
// reasoner runs, then returns the whole answer (citations, paths, trace).

// EventAskToken carries AskToken: one piece of the answer being written.
const EventAskToken = "ask:token"

// AskToken is the payload of EventAskToken. Seq numbers the pieces of one
// answer from 1, so a UI can tell a new answer's first piece.
type AskToken struct {
	Question string `json:"question"`
	Seq      int    `json:"seq"`
	Token    string `json:"token"`
}

// askMu lets one question be answered at a time: tokens of two answers
// would interleave on the one event stream.
var askMu sync.Mutex

// Ask answers a question from the project's documents. deep plans several
// steps (with a model; offline it falls back to a quick answer and says so
// in the trace). The answer is stored; Answers lists past ones. A question
// that names a document is routed to it (the answer's scope says so).
func (a *App) Ask(question string, deep bool) (kb.Answer, error) {
	return a.AskIn(question, deep, nil)
}

// AskIn is Ask within the documents docs (the Library's selection, or one
// document from its own page); none is the whole project. Every passage the
// answer cites is from them, and the answer's scope names them.
func (a *App) AskIn(question string, deep bool, docs []int64) (kb.Answer, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.Answer{}, err
	}
	question = strings.TrimSpace(question)
	if question == "" {
		return kb.Answer{}, errors.New("type a question first")
	}
	docs, err = scopeIDs(docs)
	if err != nil {
		return kb.Answer{}, err
	}
	askMu.Lock()
	defer askMu.Unlock()
	seq := 0
	ans, err := p.Ask(a.context(), question, project.AskOptions{Deep: deep, Docs: docs}, func(tok string) {
		seq++
		a.emit(EventAskToken, AskToken{Question: question, Seq: seq, Token: tok})
	})
	return ans, err
}

// Answers lists past answers, newest first (without their traces).
func (a *App) Answers() ([]kb.Answer, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return nil, err
	}
	out, err := p.Answers(a.context())
	if out == nil && err == nil {
		out = []kb.Answer{}
	}
	return out, err
}

// Answer returns one past answer with its trace.
func (a *App) Answer(id int64) (kb.Answer, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.Answer{}, err
	}
	return p.Answer(a.context(), id)
}

// AnswerTrace returns a past answer's trace decoded: everything behind the
// answer (retrieval lists, plan and steps, support, subgraph, timings,
// usage), typed, so the UI reads the same fields the reasoner wrote. An
// answer's own trace field (Ask, Answer) has this shape too.
func (a *App) AnswerTrace(id int64) (reason.Trace, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return reason.Trace{}, err
	}
	ans, err := p.Answer(a.context(), id)
	if err != nil {
		return reason.Trace{}, err
	}
	return reason.DecodeTrace(ans.Trace)
}
