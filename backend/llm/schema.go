package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// JSON-schema checking for model replies.
//
// Cairn's schemas use a small subset of JSON Schema: type (one name or a
// list), properties, required, additionalProperties (false), items, enum,
// const, minItems, maxItems, minLength, maxLength, minimum, maximum. This
// file checks a decoded reply against that subset and reports the first few
// violations with their JSON paths, which is what the repair prompt sends
// back to the model. Keywords outside the subset are refused when the schema
// is compiled (CompileSchema), so a schema can never silently check less than
// its author thinks.

// SchemaNode is a compiled schema (one node of the subset).
type SchemaNode struct {
	Types                []string               // "object", "array", "string", "number", "integer", "boolean", "null"
	Properties           map[string]*SchemaNode // object members
	Required             []string
	AdditionalProperties *bool
	Items                *SchemaNode
	Enum                 []any
	Const                any
	HasConst             bool
	MinItems, MaxItems   *int
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
}

// known keywords; annotation-only ones are accepted and ignored.
var schemaKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "minItems": true, "maxItems": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	// annotations
	"description": true, "title": true, "$schema": true, "$id": true, "examples": true, "default": true,
}

// CompileSchema parses a schema in Cairn's subset.
func CompileSchema(raw json.RawMessage) (*SchemaNode, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	return compileNode(v, "#")
}

func compileNode(v any, at string) (*SchemaNode, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: want an object", at)
	}
	n := &SchemaNode{}
	for k, val := range m {
		if !schemaKeywords[k] {
			return nil, fmt.Errorf("schema %s: keyword %q is not supported by Cairn's validator", at, k)
		}
		switch k {
		case "type":
			switch t := val.(type) {
			case string:
				n.Types = []string{t}
			case []any:
				for _, x := range t {
					s, ok := x.(string)
					if !ok {
						return nil, fmt.Errorf("schema %s: type list must hold strings", at)
					}
					n.Types = append(n.Types, s)
				}
			default:
				return nil, fmt.Errorf("schema %s: type must be a string or list", at)
			}
			for _, t := range n.Types {
				switch t {
				case "object", "array", "string", "number", "integer", "boolean", "null":
				default:
					return nil, fmt.Errorf("schema %s: unknown type %q", at, t)
				}
			}
		case "properties":
			pm, ok := val.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("schema %s: properties must be an object", at)
			}
			n.Properties = map[string]*SchemaNode{}
			for name, sub := range pm {
				c, err := compileNode(sub, at+"/properties/"+name)
				if err != nil {
					return nil, err
				}
				n.Properties[name] = c
			}
		case "required":
			l, ok := val.([]any)
			if !ok {
				return nil, fmt.Errorf("schema %s: required must be a list", at)
			}
			for _, x := range l {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("schema %s: required must hold strings", at)
				}
				n.Required = append(n.Required, s)
			}
		case "additionalProperties":
			b, ok := val.(bool)
			if !ok {
				return nil, fmt.Errorf("schema %s: only additionalProperties true/false is supported", at)
			}
			n.AdditionalProperties = &b
		case "items":
			c, err := compileNode(val, at+"/items")
			if err != nil {
				return nil, err
			}
			n.Items = c
		case "enum":
			l, ok := val.([]any)
			if !ok || len(l) == 0 {
				return nil, fmt.Errorf("schema %s: enum must be a non-empty list", at)
			}
			n.Enum = l
		case "const":
			n.Const, n.HasConst = val, true
		case "minItems", "maxItems", "minLength", "maxLength":
			i, err := schemaInt(val)
			if err != nil {
				return nil, fmt.Errorf("schema %s: %s: %w", at, k, err)
			}
			switch k {
			case "minItems":
				n.MinItems = &i
			case "maxItems":
				n.MaxItems = &i
			case "minLength":
				n.MinLength = &i
			case "maxLength":
				n.MaxLength = &i
			}
		case "minimum", "maximum":
			num, ok := val.(json.Number)
			if !ok {
				return nil, fmt.Errorf("schema %s: %s must be a number", at, k)
			}
			f, err := num.Float64()
			if err != nil {
				return nil, fmt.Errorf("schema %s: %s: %w", at, k, err)
			}
			if k == "minimum" {
				n.Minimum = &f
			} else {
				n.Maximum = &f
			}
		}
	}
	return n, nil
}

func schemaInt(v any) (int, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want an integer")
	}
	i, err := num.Int64()
	if err != nil || i < 0 {
		return 0, fmt.Errorf("want a non-negative integer")
	}
	return int(i), nil
}

// SchemaError lists the violations found in one reply.
type SchemaError struct {
	Problems []string // "$.entities[2].name: missing required property", ...
}

func (e *SchemaError) Error() string {
	return "reply does not match the schema: " + strings.Join(e.Problems, "; ")
}

// maxProblems bounds what is reported (and sent back in a repair prompt).
const maxProblems = 8

// ValidateJSON decodes raw and checks it against the schema. It returns
// *SchemaError for violations and a plain error when raw is not JSON.
func (n *SchemaNode) ValidateJSON(raw []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("extra data after the JSON value")
	}
	return n.Validate(v)
}

// Validate checks a value decoded with json.Decoder.UseNumber.
func (n *SchemaNode) Validate(v any) error {
	var probs []string
	n.check(v, "$", &probs)
	if len(probs) > 0 {
		if len(probs) > maxProblems {
			probs = append(probs[:maxProblems], fmt.Sprintf("… and %d more", len(probs)-maxProblems))
		}
		return &SchemaError{Problems: probs}
	}
	return nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(string(x), "eE") {
			return "integer"
		}
		return "number"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeMatches(want, have string) bool {
	return want == have || (want == "number" && have == "integer")
}

func (n *SchemaNode) check(v any, path string, probs *[]string) {
	if len(*probs) > maxProblems {
		return
	}
	add := func(format string, args ...any) {
		*probs = append(*probs, path+": "+fmt.Sprintf(format, args...))
	}
	have := jsonType(v)
	if len(n.Types) > 0 {
		ok := false
		for _, t := range n.Types {
			if typeMatches(t, have) {
				ok = true
				break
			}
		}
		if !ok {
			add("want %s, got %s", strings.Join(n.Types, " or "), have)
			return
		}
	}
	if n.Enum != nil {
		ok := false
		for _, e := range n.Enum {
			if jsonEqual(e, v) {
				ok = true
				break
			}
		}
		if !ok {
			add("%s is not one of %s", short(v), enumList(n.Enum))
		}
	}
	if n.HasConst && !jsonEqual(n.Const, v) {
		add("want %s, got %s", short(n.Const), short(v))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range n.Required {
			if _, ok := x[r]; !ok {
				add("missing required property %q", r)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub, ok := n.Properties[k]
			if !ok {
				if n.AdditionalProperties != nil && !*n.AdditionalProperties {
					add("unexpected property %q", k)
				}
				continue
			}
			sub.check(x[k], path+"."+k, probs)
		}
	case []any:
		if n.MinItems != nil && len(x) < *n.MinItems {
			add("want at least %d items, got %d", *n.MinItems, len(x))
		}
		if n.MaxItems != nil && len(x) > *n.MaxItems {
			add("want at most %d items, got %d", *n.MaxItems, len(x))
		}
		if n.Items != nil {
			for i, e := range x {
				n.Items.check(e, fmt.Sprintf("%s[%d]", path, i), probs)
			}
		}
	case string:
		l := len([]rune(x))
		if n.MinLength != nil && l < *n.MinLength {
			add("want at least %d characters, got %d", *n.MinLength, l)
		}
		if n.MaxLength != nil && l > *n.MaxLength {
			add("want at most %d characters, got %d", *n.MaxLength, l)
		}
	case json.Number:
		f, _ := x.Float64()
		if n.Minimum != nil && f < *n.Minimum {
			add("%s is below the minimum %v", x, *n.Minimum)
		}
		if n.Maximum != nil && f > *n.Maximum {
			add("%s is above the maximum %v", x, *n.Maximum)
		}
	}
}

func jsonEqual(a, b any) bool {
	ab, err1 := json.Marshal(a)
	bb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	if na, ok := a.(json.Number); ok {
		if nb, ok := b.(json.Number); ok {
			fa, _ := na.Float64()
			fb, _ := nb.Float64()
			return fa == fb
		}
	}
	return bytes.Equal(ab, bb)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func enumList(l []any) string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = short(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Instance returns the smallest value that satisfies the schema: required
// properties only, minItems items, the first enum value, minLength "x"s,
// numbers at their minimum (or 0). The fake Ollama server answers schema
// requests with it by default.
func (n *SchemaNode) Instance() any {
	if n.HasConst {
		return n.Const
	}
	if len(n.Enum) > 0 {
		return n.Enum[0]
	}
	t := ""
	if len(n.Types) > 0 {
		t = n.Types[0]
	} else if n.Properties != nil {
		t = "object"
	} else if n.Items != nil {
		t = "array"
	}
	switch t {
	case "object":
		m := map[string]any{}
		for _, r := range n.Required {
			if sub, ok := n.Properties[r]; ok {
				m[r] = sub.Instance()
			} else {
				m[r] = nil
			}
		}
		return m
	case "array":
		l := []any{}
		if n.MinItems != nil && n.Items != nil {
			for i := 0; i < *n.MinItems; i++ {
				l = append(l, n.Items.Instance())
			}
		}
		return l
	case "string":
		if n.MinLength != nil {
			return strings.Repeat("x", *n.MinLength)
		}
		return ""
	case "number", "integer":
		if n.Minimum != nil {
			if t == "integer" {
				return int64(math.Ceil(*n.Minimum))
			}
			return *n.Minimum
		}
		return 0
	case "boolean":
		return false
	}
	return nil
}
