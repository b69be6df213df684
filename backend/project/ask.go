package project

import (
	"context"
	"errors"
	"strings"
	"time"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/reason"
	"cairn/backend/retrieve"
)

// AskOptions choose how a question is answered.
type AskOptions struct {
	Deep bool // plan multi-step questions (needs a model; else quick with the reason recorded)
	K    int  // evidence passages (0: default)
	// Docs, when not empty, asks only these documents; else the documents
	// the question names (routing), else the whole project.
	Docs []int64
}

// Retriever returns the project's full retriever (passages, knowledge
// graph lists, personalised PageRank) with default settings.
func (p *Project) Retriever() *retrieve.Retriever {
	return retrieve.New(p.store, p.Embedder())
}

// Reasoner returns a reasoner for the question q over the documents docs
// (none: those the question names, else the whole project; see Scope),
// with the project's retriever kept to the same documents and the
// reasoner's Scope set to them (left nil for the whole project).
func (p *Project) Reasoner(ctx context.Context, q *question.Question, docs []int64) (*reason.Reasoner, error) {
	// One read of the documents routes the question and tells their
	// fiscal years.
	all, err := p.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	scope, unowned, err := scopeIn(all, q, docs)
	if err != nil {
		return nil, err
	}
	rt := p.Retriever()
	r := reason.New(rt, p.Provider())
	r.FiscalEnds = FiscalEndsOf(all)
	r.Unowned = unowned
	if !scope.Whole() {
		rt.Docs = scope.Docs
		r.Scope = scope
	}
	return r, nil
}

// Ask answers question from the project's documents, streaming the answer
// text to onToken (may be nil), and stores the answer with its trace.
//
// The question is analysed once (backend/question): routing, retrieval
// and the answer read the same analysis.
func (p *Project) Ask(ctx context.Context, text string, opt AskOptions, onToken func(string)) (kb.Answer, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return kb.Answer{}, errors.New("the question is empty")
	}
	q, err := p.Analyse(ctx, text)
	if err != nil {
		return kb.Answer{}, err
	}
	r, err := p.Reasoner(ctx, q, opt.Docs)
	if err != nil {
		return kb.Answer{}, err
	}
	if opt.K > 0 {
		r.Settings.K = opt.K
	}
	var a kb.Answer
	if opt.Deep {
		a, err = r.DeepAnalysed(ctx, q, onToken)
	} else {
		a, err = r.QuickAnalysed(ctx, q, onToken)
	}
	if err != nil {
		return kb.Answer{}, err
	}
	a.AskedAt = time.Now().UTC().Format(time.RFC3339Nano)
	if p.store.ReadOnly() {
		return a, nil // answered, not kept: the project cannot be written
	}
	id, err := p.store.SaveAnswer(ctx, a)
	if err != nil {
		return a, err
	}
	a.ID = id
	return a, nil
}

// Analyse reads a question or a search's text once (backend/question),
// with the words no passage of the project holds and that are a letter
// or two from one it does read as that word (retrieve.Respell:
// "requiremnt" as "requirement"); the question keeps the text as typed.
func (p *Project) Analyse(ctx context.Context, text string) (*question.Question, error) {
	fixed, fixes, err := p.Retriever().Respell(ctx, text)
	if err != nil {
		return nil, err
	}
	if len(fixes) == 0 {
		return question.New(text), nil
	}
	return question.Respelled(text, fixed, fixes), nil
}

// Answers lists the stored answers, newest first (without traces).
func (p *Project) Answers(ctx context.Context) ([]kb.Answer, error) {
	return p.store.Answers(ctx)
}

// Answer returns one stored answer with its trace.
func (p *Project) Answer(ctx context.Context, id int64) (kb.Answer, error) {
	return p.store.Answer(ctx, id)
}
