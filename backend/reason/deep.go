package reason

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/question"
)

// Deep answers multi-step questions: the model plans (JSON logical form),
// Go executes the steps (graph first, passage fallback with a sub-question
// call; sort, math and comparisons in Go), reflection re-plans what is still
// missing (at most MaxRounds rounds), and a final streamed answer cites the
// passages. Without a model, or when the plan is malformed, it answers in
// quick mode and records why.
func (r *Reasoner) Deep(ctx context.Context, text string, onToken func(string)) (kb.Answer, error) {
	return r.DeepAnalysed(ctx, question.New(text), onToken)
}

// DeepAnalysed is Deep of a question already analysed (as a project
// analyses it to route it).
func (r *Reasoner) DeepAnalysed(ctx context.Context, q *question.Question, onToken func(string)) (kb.Answer, error) {
	u := r.newRun(q, "deep")
	if r.offline() {
		return u.fallback(ctx, onToken, "offline: planning needs a language model")
	}
	var memory []string
	stepEvidence := map[int64]bool{}
	var evOrder []int64
	answered := false
	for round := 1; round <= max(1, min(u.set.MaxRounds, 3)); round++ {
		plan, err := u.plan(ctx, memory)
		if err != nil {
			if round == 1 {
				why := "planner output unusable: "
				switch llm.KindOf(err) {
				case "", llm.FailMalformed, llm.FailSchema, llm.FailEmpty:
				default: // the call itself failed: unreachable, timeout, HTTP, ...
					why = "planner call failed: "
				}
				return u.fallback(ctx, onToken, why+err.Error())
			}
			u.failed("plan", err)
			break
		}
		if round == 1 {
			u.trace.Plan = &plan
		}
		rt, out, err := u.execute(ctx, plan)
		if err != nil {
			return kb.Answer{}, err
		}
		for _, st := range rt.Steps {
			if len(st.Values) > 0 && st.Op != "output" {
				memory = append(memory, fmt.Sprintf("%s: %s", st.Query, strings.Join(st.Values, ", ")))
			}
			for _, c := range st.Evidence {
				if !stepEvidence[c] {
					stepEvidence[c] = true
					evOrder = append(evOrder, c)
				}
			}
		}
		rt.Answered = len(out) > 0
		u.trace.Rounds = append(u.trace.Rounds, rt)
		if rt.Answered {
			answered = true
			memory = append(memory, "Answer found by the plan: "+strings.Join(out, ", "))
			break
		}
	}
	_ = answered
	g, err := u.gather(ctx, deepFinalStep)
	if err != nil {
		return kb.Answer{}, err
	}
	// Step evidence first, then the question's own retrieval.
	if len(evOrder) > 0 {
		more, err := u.chunkHits(ctx, evOrder)
		if err != nil {
			return kb.Answer{}, err
		}
		var ev []Evidence
		seen := map[int64]bool{}
		for _, h := range more {
			if !seen[h.ID] && len(ev) < u.set.K+2 {
				seen[h.ID] = true
				ev = append(ev, Evidence{N: len(ev) + 1, Hit: h})
			}
		}
		for _, e := range g.evidence {
			if !seen[e.Hit.ID] && len(ev) < u.set.K+2 {
				seen[e.Hit.ID] = true
				ev = append(ev, Evidence{N: len(ev) + 1, Hit: e.Hit})
			}
		}
		g.evidence = ev
		g.declined = false // the plan found support the passage check may miss
		u.trace.Support.Declined = false
		u.trace.Retrieval.Evidence = nil
		for _, e := range ev {
			u.trace.Retrieval.Evidence = append(u.trace.Retrieval.Evidence, e.Hit.ID)
		}
	}
	a, err := u.answer(ctx, g, onToken, memory)
	if err != nil {
		return kb.Answer{}, err
	}
	return a, u.finish(&a, onToken)
}

// fallback answers in quick mode, recording why.
func (u *run) fallback(ctx context.Context, onToken func(string), reason string) (kb.Answer, error) {
	u.trace.Fallback = reason
	a, err := u.quick(ctx, onToken, nil)
	if err != nil {
		return kb.Answer{}, err
	}
	err = u.finish(&a, onToken)
	a.Mode = "deep"
	return a, err
}

// plan asks the model for a plan and parses it.
func (u *run) plan(ctx context.Context, memory []string) (Plan, error) {
	var mem []string
	for _, m := range memory {
		mem = append(mem, fence(m))
	}
	msgs, err := messages("plan", planData{Question: fence(u.q.Text), Memory: mem})
	if err != nil {
		return Plan{}, err
	}
	rep, err := u.r.Provider.ChatJSON(ctx, llm.JSONRequest{Task: "plan", Messages: msgs, Schema: schema("plan"),
		Validate: func(raw json.RawMessage) error { _, err := ParsePlan(raw); return err }})
	u.lap("plan")
	if err != nil {
		var ce *llm.CallError
		if errors.As(err, &ce) {
			u.meter.Add("plan", ce.Usage)
		}
		return Plan{}, err
	}
	u.meter.Add("plan", rep.Usage)
	return ParsePlan(rep.Raw)
}

// execute runs a plan's steps; out is the output step's values.
func (u *run) execute(ctx context.Context, p Plan) (RoundTrace, []string, error) {
	rt := RoundTrace{Question: u.q.Text}
	values := map[int][]string{}
	var out []string
	for _, s := range p.Steps {
		t0 := time.Now()
		st := StepTrace{ID: s.ID, Op: s.Op, Values: []string{}}
		var inputs [][]string
		for _, in := range s.Inputs {
			inputs = append(inputs, values[in])
		}
		switch s.Op {
		case "retrieval":
			if err := u.retrievalStep(ctx, s, values, &st); err != nil {
				return rt, nil, err
			}
		case "sort":
			st.Query = fmt.Sprintf("sort %s (limit %d)", s.Direction, s.Limit)
			st.By = "go"
			st.Values = SortValues(flatten(inputs), s.Direction == "desc", s.Limit)
		case "math":
			st.Query = s.Expr
			st.By = "go"
			v, note := Math(s.Expr, flatten(inputs))
			st.Values, st.Note = v, note
		case "deduce":
			st.Query = fill(s.Question, values)
			if st.Query == "" {
				st.Query = s.Expr
			}
			v, ok := Compare(s.Expr, inputs)
			if ok {
				st.By, st.Values = "go", []string{v}
			} else {
				v, err := u.deduceByModel(ctx, st.Query, inputs)
				if err != nil {
					st.By, st.Note = "none", err.Error()
				} else {
					st.By, st.Values = "model", []string{v}
				}
			}
		case "output":
			st.By = "go"
			st.Query = "output"
			st.Values = dedupe(flatten(inputs))
			out = st.Values
		}
		values[s.ID] = st.Values
		st.MS = time.Since(t0).Milliseconds()
		rt.Steps = append(rt.Steps, st)
	}
	u.lap("execute")
	return rt, out, nil
}

// retrievalStep answers one (subject, predicate, object) step: graph first
// (entity linking, fuzzy predicate match), else passages + a sub-question.
func (u *run) retrievalStep(ctx context.Context, s PlanStep, values map[int][]string, st *StepTrace) error {
	subj, obj := fill(s.Subject, values), fill(s.Object, values)
	known, want := subj, "object"
	if isVar(subj) || subj == "" {
		known, want = obj, "subject"
	}
	q := fill(s.Question, values)
	if q == "" {
		q = strings.TrimSpace(strings.Join([]string{varless(subj), s.Predicate, varless(obj)}, " "))
	}
	st.Query = q
	if known != "" && !isVar(known) {
		vals, ev, err := u.graphLookup(ctx, known, s.Predicate, want)
		if err != nil {
			return err
		}
		if len(vals) > 0 {
			st.By, st.Values, st.Evidence = "graph", vals, ev
			return nil
		}
	}
	// Passage fallback.
	// The step's question, another text: analysed once, here.
	res, err := u.r.Retriever.Retrieve(ctx, question.New(q), u.set.K)
	if err != nil {
		return err
	}
	var ev []Evidence
	for i, h := range res.Hits {
		if i >= u.set.K {
			break
		}
		ev = append(ev, Evidence{N: i + 1, Hit: h})
	}
	st.By = "passages"
	msgs, err := messages("step", stepData{Question: fence(q), Passages: passagesOf(ev)})
	if err != nil {
		return err
	}
	rep, err := u.r.Provider.ChatJSON(ctx, llm.JSONRequest{Task: "step", Messages: msgs, Schema: schema("step")})
	if err != nil {
		u.failed("step", err)
		st.Note = "sub-question call failed"
		for _, e := range ev[:min(2, len(ev))] {
			st.Evidence = append(st.Evidence, e.Hit.ID)
		}
		return nil
	}
	u.meter.Add("step", rep.Usage)
	var reply struct {
		Answer   string `json:"answer"`
		Evidence []int  `json:"evidence"`
	}
	if err := json.Unmarshal(rep.Raw, &reply); err != nil {
		u.failed("step", err)
		return nil
	}
	if a := strings.TrimSpace(reply.Answer); a != "" {
		st.Values = []string{a}
	}
	for _, n := range reply.Evidence {
		if n >= 1 && n <= len(ev) {
			st.Evidence = append(st.Evidence, ev[n-1].Hit.ID)
		}
	}
	if len(st.Evidence) == 0 && len(ev) > 0 {
		st.Evidence = []int64{ev[0].Hit.ID}
	}
	return nil
}

func isVar(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "?") }

func varless(s string) string {
	if isVar(s) {
		return ""
	}
	return s
}

// graphLookup links name to entities and follows relations whose predicate
// matches; want says which end is the answer.
func (u *run) graphLookup(ctx context.Context, name, predicate, want string) ([]string, []int64, error) {
	rt := u.r.Retriever
	ids, err := rt.EntitiesCalled(ctx, strings.Split(name, " and "))
	if err != nil {
		return nil, nil, err
	}
	if len(ids) == 0 {
		if ids, err = rt.EntitiesNear(ctx, name, 3, 0.85); err != nil {
			return nil, nil, err
		}
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	isKnown := map[int64]bool{}
	for _, id := range ids {
		isKnown[id] = true
	}
	rels, err := rt.RelationsTouching(ctx, ids, 200)
	if err != nil {
		return nil, nil, err
	}
	type cand struct {
		val string
		sim float64
		src int64
	}
	var cands []cand
	for _, r := range rels {
		sim := predicateSim(u.r.hashed(), predicate, r.Predicate)
		if sim < 0.5 || len(r.Sources) == 0 {
			continue
		}
		var val string
		switch {
		case want == "object" && isKnown[r.Subject]:
			val = r.ObjectName
		case want == "subject" && isKnown[r.Object]:
			val = r.SubjectName
		case isKnown[r.Subject]: // stated the other way round
			val, sim = r.ObjectName, sim*0.8
		default:
			val, sim = r.SubjectName, sim*0.8
		}
		cands = append(cands, cand{val, sim, r.Sources[0].ChunkID})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].sim > cands[j].sim })
	var vals []string
	var ev []int64
	for _, c := range cands {
		if len(vals) >= 5 || c.sim < cands[0].sim*0.9 {
			break
		}
		vals = append(vals, c.val)
		ev = append(ev, c.src)
	}
	return dedupe(vals), ev, nil
}

func (u *run) deduceByModel(ctx context.Context, q string, inputs [][]string) (string, error) {
	var vals []string
	for _, in := range inputs {
		vals = append(vals, fence(strings.Join(in, ", ")))
	}
	msgs, err := messages("deduce", deduceData{Question: fence(q), Values: vals})
	if err != nil {
		return "", err
	}
	rep, err := u.r.Provider.ChatJSON(ctx, llm.JSONRequest{Task: "deduce", Messages: msgs, Schema: schema("deduce")})
	if err != nil {
		u.failed("deduce", err)
		return "", err
	}
	u.meter.Add("deduce", rep.Usage)
	var reply struct {
		Answer string `json:"answer"`
	}
	if err := json.Unmarshal(rep.Raw, &reply); err != nil {
		return "", err
	}
	return reply.Answer, nil
}

func flatten(xs [][]string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

func dedupe(xs []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, x := range xs {
		k := strings.ToLower(strings.TrimSpace(x))
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

var numRe = regexp.MustCompile(`[-+]?\d[\d,]*(?:\.\d+)?`)

var dateLayouts = []string{"2006-01-02", "2 January 2006", "January 2, 2006", "January 2 2006", "2 Jan 2006", "Jan 2, 2006", "January 2006"}

// Quantity reads a value as a number: a date as a fractional year (so
// "12 March 1990" and "1985" compare, and years subtract to years) or the
// first number in the text (thousands commas removed; units ignored).
func Quantity(s string) (float64, bool) {
	t := strings.TrimSpace(strings.Trim(s, ".,;"))
	for _, l := range dateLayouts {
		if d, err := time.Parse(l, t); err == nil {
			return float64(d.Year()) + float64(d.YearDay()-1)/365.25, true
		}
	}
	m := numRe.FindString(t)
	if m == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
	return f, err == nil
}

// SortValues orders values by their quantity (values without one keep their
// order at the end) and keeps limit (all when ≤ 0).
func SortValues(vals []string, desc bool, limit int) []string {
	type kv struct {
		v  string
		q  float64
		ok bool
	}
	var xs []kv
	for _, v := range vals {
		q, ok := Quantity(v)
		xs = append(xs, kv{v, q, ok})
	}
	sort.SliceStable(xs, func(i, j int) bool {
		if xs[i].ok != xs[j].ok {
			return xs[i].ok
		}
		if desc {
			return xs[i].q > xs[j].q
		}
		return xs[i].q < xs[j].q
	})
	out := []string{}
	for _, x := range xs {
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, x.v)
	}
	return out
}

// Math computes expr (count, sum, average, difference, max, min) over the
// values' quantities; note says what was skipped. It fails, with no values
// and a note saying why, for an unknown operation or when no value has a
// number.
func Math(expr string, vals []string) ([]string, string) {
	switch expr {
	case "count":
		return []string{strconv.Itoa(len(dedupe(vals)))}, ""
	case "sum", "average", "difference", "max", "min":
	default:
		return []string{}, fmt.Sprintf("unknown operation %q (count, sum, average, difference, max or min)", expr)
	}
	var qs []float64
	skipped := 0
	for _, v := range vals {
		if q, ok := Quantity(v); ok {
			qs = append(qs, q)
		} else {
			skipped++
		}
	}
	note := ""
	if skipped > 0 {
		note = fmt.Sprintf("%d value(s) without a number skipped", skipped)
	}
	if len(qs) == 0 {
		return []string{}, "no numbers to compute with"
	}
	var r float64
	switch expr {
	case "sum", "average":
		for _, q := range qs {
			r += q
		}
		if expr == "average" {
			r /= float64(len(qs))
		}
	case "difference":
		if len(qs) < 2 {
			return []string{}, "difference needs two values"
		}
		r = math.Abs(qs[0] - qs[1])
	case "max":
		r = qs[0]
		for _, q := range qs {
			r = math.Max(r, q)
		}
	case "min":
		r = qs[0]
		for _, q := range qs {
			r = math.Min(r, q)
		}
	}
	return []string{strconv.FormatFloat(r, 'f', -1, 64)}, note
}

// Compare decides a deduce step in Go when it can: equal on normalised text
// or quantities; greater/less/earlier/later on the first value of the first
// two inputs. ok is false when the model must judge (entailment, or values
// without quantities).
func Compare(expr string, inputs [][]string) (string, bool) {
	if len(inputs) < 2 || len(inputs[0]) == 0 || len(inputs[1]) == 0 {
		return "", false
	}
	a, b := inputs[0][0], inputs[1][0]
	qa, oka := Quantity(a)
	qb, okb := Quantity(b)
	yes := func(c bool) string {
		if c {
			return "yes"
		}
		return "no"
	}
	switch expr {
	case "equal":
		if oka && okb {
			return yes(qa == qb), true
		}
		return yes(kb.NormKey(a) == kb.NormKey(b)), true
	case "greater", "later":
		if oka && okb {
			return yes(qa > qb), true
		}
	case "less", "earlier":
		if oka && okb {
			return yes(qa < qb), true
		}
	}
	return "", false
}
