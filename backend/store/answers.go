package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"cairn/backend/kb"
)

// ErrNoAnswer is returned for an unknown answer id.
var ErrNoAnswer = errors.New("no such answer")

// SaveAnswer stores an answer with its citations, paths and trace and
// returns its id.
func (s *Store) SaveAnswer(ctx context.Context, a kb.Answer) (int64, error) {
	if a.Mode != "quick" && a.Mode != "deep" {
		return 0, fmt.Errorf("save answer: mode %q", a.Mode)
	}
	cit, err := json.Marshal(nonNil(a.Citations))
	if err != nil {
		return 0, err
	}
	paths, err := json.Marshal(nonNil(a.Paths))
	if err != nil {
		return 0, err
	}
	trace := string(a.Trace)
	if trace == "" || trace == "null" {
		trace = "{}"
	} else if !json.Valid(a.Trace) {
		return 0, fmt.Errorf("save answer: trace is not JSON")
	}
	asked := a.AskedAt
	if asked == "" {
		asked = nowText()
	}
	res, err := s.db.ExecContext(ctx, "INSERT INTO answers(question, answer, declined, mode, citations, paths, trace, asked_at) VALUES(?,?,?,?,?,?,?,?)",
		a.Question, a.Answer, a.Declined, a.Mode, string(cit), string(paths), trace, asked)
	if err != nil {
		return 0, fmt.Errorf("save answer: %w", err)
	}
	return res.LastInsertId()
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// answerCut reads kb.Answer.Cut back from the trace (reason.Trace's
// answer_cut): an answer the model left unfinished stays marked so.
// answerScope reads kb.Answer.Scope back from the trace.
const answerScope = "CASE WHEN json_valid(trace) THEN json_extract(trace, '$.scope') END"

// answerOutcome reads kb.Answer.Outcome back from the trace (reason.Trace's
// outcome); an answer stored before answers had one gets it from declined
// (scanAnswer: declined, else an answer). No migration: the trace holds it.
const answerOutcome = "CASE WHEN json_valid(trace) THEN json_extract(trace, '$.outcome') END"

const answerCut = "COALESCE(CASE WHEN json_valid(trace) THEN json_extract(trace, '$.answer_cut') END, '')"

func scanAnswer(sc interface{ Scan(...any) error }, withTrace bool) (kb.Answer, error) {
	var a kb.Answer
	var cit, paths, trace string
	var short, scope, outcome sql.NullString
	if err := sc.Scan(&a.ID, &a.Question, &a.Answer, &a.Declined, &a.Mode, &cit, &paths, &trace, &a.AskedAt, &a.Cut, &short, &scope, &outcome); err != nil {
		return a, err
	}
	switch a.Outcome = kb.OutcomeOf(a.Declined); outcome.String {
	case kb.OutcomeAnswer, kb.OutcomeEvidence:
		if !a.Declined {
			a.Outcome = outcome.String
		}
	}
	if scope.Valid && scope.String != "" {
		var sc kb.Scope
		if json.Unmarshal([]byte(scope.String), &sc) == nil && !sc.Whole() {
			a.Scope = &sc
		}
	}
	if short.Valid && short.String != "" {
		var sa kb.ShortAnswer
		if json.Unmarshal([]byte(short.String), &sa) == nil && sa.Text != "" {
			a.Short = &sa
		}
	}
	if err := json.Unmarshal([]byte(cit), &a.Citations); err != nil {
		return a, fmt.Errorf("answer %d citations: %w", a.ID, err)
	}
	if err := json.Unmarshal([]byte(paths), &a.Paths); err != nil {
		return a, fmt.Errorf("answer %d paths: %w", a.ID, err)
	}
	if withTrace {
		a.Trace = json.RawMessage(trace)
	}
	return a, nil
}

// Answers lists stored answers newest first, without their traces.
func (s *Store) Answers(ctx context.Context) ([]kb.Answer, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, question, answer, declined, mode, citations, paths, '', asked_at, "+answerCut+", json_extract(trace, '$.short'), "+answerScope+", "+answerOutcome+" FROM answers ORDER BY asked_at DESC, id DESC")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []kb.Answer{}
	for rows.Next() {
		a, err := scanAnswer(rows, false)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Answer loads one stored answer with its trace.
func (s *Store) Answer(ctx context.Context, id int64) (kb.Answer, error) {
	a, err := scanAnswer(s.db.QueryRowContext(ctx, "SELECT id, question, answer, declined, mode, citations, paths, trace, asked_at, "+answerCut+", json_extract(trace, '$.short'), "+answerScope+", "+answerOutcome+" FROM answers WHERE id = ?", id), true)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.Answer{}, fmt.Errorf("answer %d: %w", id, ErrNoAnswer)
	}
	return a, err
}
