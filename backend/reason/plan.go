package reason

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Plan is a deep answer's logical form: steps executed in order, later steps
// referring to earlier ones by id (inputs, or "#N" in subject/object).
type Plan struct {
	Steps []PlanStep `json:"steps"`
}

// PlanStep is one step. Op is retrieval, sort, math, deduce or output.
type PlanStep struct {
	ID        int    `json:"id"`
	Op        string `json:"op"`
	Subject   string `json:"subject,omitempty"`
	Predicate string `json:"predicate,omitempty"`
	Object    string `json:"object,omitempty"`
	Question  string `json:"question,omitempty"`
	Inputs    []int  `json:"inputs,omitempty"`
	Expr      string `json:"expr,omitempty"`
	Direction string `json:"direction,omitempty"`
	Limit     int    `json:"limit,omitempty"`
}

var mathExprs = map[string]bool{"count": true, "sum": true, "difference": true, "max": true, "min": true, "average": true}
var deduceExprs = map[string]bool{"equal": true, "greater": true, "less": true, "earlier": true, "later": true, "entailment": true}

// ParsePlan decodes and checks a planner reply: 1–8 steps numbered 1..n in
// order, known ops, references only to earlier steps, a retrieval step with
// a predicate and a subject or object, exactly one output step and it last.
// Unknown math/deduce expressions are errors; an empty sort direction means
// ascending.
func ParsePlan(raw []byte) (Plan, error) {
	var p Plan
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Plan{}, fmt.Errorf("plan is not the expected JSON: %w", err)
	}
	if len(p.Steps) == 0 || len(p.Steps) > 8 {
		return Plan{}, fmt.Errorf("plan has %d steps (want 1 to 8)", len(p.Steps))
	}
	outputs := 0
	for i := range p.Steps {
		s := &p.Steps[i]
		if s.ID != i+1 {
			return Plan{}, fmt.Errorf("step %d has id %d (steps must be numbered 1, 2, ... in order)", i+1, s.ID)
		}
		for _, in := range s.Inputs {
			if in < 1 || in >= s.ID {
				return Plan{}, fmt.Errorf("step %d refers to step %d, which does not come before it", s.ID, in)
			}
		}
		for _, f := range []string{s.Subject, s.Object, s.Question} {
			for _, ref := range refs(f) {
				if ref < 1 || ref >= s.ID {
					return Plan{}, fmt.Errorf("step %d refers to #%d, which does not come before it", s.ID, ref)
				}
			}
		}
		s.Expr = strings.ToLower(strings.TrimSpace(s.Expr))
		switch s.Op {
		case "retrieval":
			if strings.TrimSpace(s.Predicate) == "" || (strings.TrimSpace(s.Subject) == "" && strings.TrimSpace(s.Object) == "") {
				return Plan{}, fmt.Errorf("retrieval step %d needs a predicate and a subject or object", s.ID)
			}
		case "sort":
			if len(s.Inputs) == 0 {
				return Plan{}, fmt.Errorf("sort step %d has no inputs", s.ID)
			}
			if s.Direction == "" {
				s.Direction = "asc"
			}
			if s.Direction != "asc" && s.Direction != "desc" {
				return Plan{}, fmt.Errorf("sort step %d: direction %q", s.ID, s.Direction)
			}
		case "math":
			if !mathExprs[s.Expr] || len(s.Inputs) == 0 {
				return Plan{}, fmt.Errorf("math step %d: expr %q with %d inputs", s.ID, s.Expr, len(s.Inputs))
			}
		case "deduce":
			if !deduceExprs[s.Expr] || len(s.Inputs) == 0 {
				return Plan{}, fmt.Errorf("deduce step %d: expr %q with %d inputs", s.ID, s.Expr, len(s.Inputs))
			}
		case "output":
			outputs++
			if i != len(p.Steps)-1 {
				return Plan{}, fmt.Errorf("output step %d is not the last step", s.ID)
			}
			if len(s.Inputs) == 0 && s.ID > 1 {
				s.Inputs = []int{s.ID - 1}
			}
		default:
			return Plan{}, fmt.Errorf("step %d: unknown op %q", s.ID, s.Op)
		}
	}
	if outputs != 1 {
		return Plan{}, fmt.Errorf("plan has %d output steps (want exactly 1, last)", outputs)
	}
	return p, nil
}

// refs returns the step numbers referenced as "#N" in s.
func refs(s string) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		if s[i] != '#' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 && j-i <= 4 {
			n, _ := strconv.Atoi(s[i+1 : j])
			out = append(out, n)
		}
	}
	return out
}

// fill replaces "#N" references in s by the first value of step N (or all
// values joined by " and ").
func fill(s string, values map[int][]string) string {
	for _, ref := range refs(s) {
		v := strings.Join(values[ref], " and ")
		s = strings.Replace(s, "#"+strconv.Itoa(ref), v, 1)
	}
	return strings.TrimSpace(s)
}
