package packs

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// schemaValidator is the subset of JSON Schema 2020-12 that
// docs/pack.schema.json uses, enough to hold the schema and the Go
// validator to each other.
type schemaValidator struct{ root map[string]any }

func loadSchema(t *testing.T) *schemaValidator {
	t.Helper()
	b, err := os.ReadFile("../../docs/pack.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{root: root}
}

func (v *schemaValidator) validate(s map[string]any, x any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		errs = append(errs, v.validate(v.root["$defs"].(map[string]any)[name].(map[string]any), x, at)...)
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, x) {
		fail("want %v", c)
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, c := range e {
			found = found || reflect.DeepEqual(c, x)
		}
		if !found {
			fail("%v not in %v", x, e)
		}
	}
	switch s["type"] {
	case "object":
		if _, ok := x.(map[string]any); !ok {
			fail("want object")
			return errs
		}
	case "array":
		if _, ok := x.([]any); !ok {
			fail("want array")
			return errs
		}
	case "string":
		if _, ok := x.(string); !ok {
			fail("want string")
			return errs
		}
	case "number":
		if _, ok := x.(float64); !ok {
			fail("want number")
			return errs
		}
	case "integer":
		if f, ok := x.(float64); !ok || f != math.Trunc(f) {
			fail("want integer")
			return errs
		}
	}
	switch x := x.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := x[r.(string)]; !ok {
				fail("missing %s", r)
			}
		}
		for k, val := range x {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, v.validate(ps, val, at+"."+k)...)
			} else if props[k] == false {
				fail("property %s not allowed here", k)
			} else if s["additionalProperties"] == false {
				fail("unknown property %s", k)
			}
		}
	case []any:
		if n, ok := s["minItems"].(float64); ok && float64(len(x)) < n {
			fail("fewer than %v items", n)
		}
		if n, ok := s["maxItems"].(float64); ok && float64(len(x)) > n {
			fail("more than %v items", n)
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				errs = append(errs, v.validate(it, e, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	case string:
		n := float64(utf8.RuneCountInString(x))
		if m, ok := s["minLength"].(float64); ok && n < m {
			fail("shorter than %v", m)
		}
		if m, ok := s["maxLength"].(float64); ok && n > m {
			fail("longer than %v", m)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			fail("%q does not match %s", x, p)
		}
	case float64:
		if m, ok := s["minimum"].(float64); ok && x < m {
			fail("below %v", m)
		}
		if m, ok := s["maximum"].(float64); ok && x > m {
			fail("above %v", m)
		}
		if m, ok := s["exclusiveMinimum"].(float64); ok && x <= m {
			fail("not above %v", m)
		}
		if m, ok := s["exclusiveMaximum"].(float64); ok && x >= m {
			fail("not below %v", m)
		}
	}
	for _, sub := range asList(s["allOf"]) {
		sub := sub.(map[string]any)
		if cond, ok := sub["if"].(map[string]any); ok {
			if len(v.validate(cond, x, at)) == 0 {
				errs = append(errs, v.validate(sub["then"].(map[string]any), x, at)...)
			}
			continue
		}
		errs = append(errs, v.validate(sub, x, at)...)
	}
	return errs
}

func asList(v any) []any { l, _ := v.([]any); return l }

func generic(t *testing.T, m any) map[string]any {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestScaffoldMatchesSchema(t *testing.T) {
	sv := loadSchema(t)
	src, err := os.ReadFile("scaffold/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(src, &raw); err != nil {
		t.Fatal(err)
	}
	if errs := sv.validate(sv.root, raw, "pack.json"); len(errs) > 0 {
		t.Fatalf("the scaffold's pack.json breaks the schema:\n%s", strings.Join(errs, "\n"))
	}
	p, err := ReadPack("scaffold.kidpack", builtScaffold(t))
	if err != nil {
		t.Fatal(err)
	}
	if errs := sv.validate(sv.root, generic(t, p.Manifest), "pack.json"); len(errs) > 0 {
		t.Fatalf("the built manifest breaks the schema:\n%s", strings.Join(errs, "\n"))
	}
}

// TestSchemaAgreesWithValidate breaks the scaffold's manifest one rule at
// a time: the schema and Manifest.Validate must both reject it.
func TestSchemaAgreesWithValidate(t *testing.T) {
	sv := loadSchema(t)
	edits := map[string]func(m map[string]any){
		"format":          func(m map[string]any) { m["format"] = 0.0 },
		"id":              func(m map[string]any) { m["id"] = "Has Space" },
		"version":         func(m map[string]any) { m["version"] = "v1" },
		"title zh":        func(m map[string]any) { m["title"].(map[string]any)["zh"] = "" },
		"no exercises":    func(m map[string]any) { m["exercises"] = []any{} },
		"exercise id":     func(m map[string]any) { ex(m)["id"] = "Square" },
		"starter path":    func(m map[string]any) { ex(m)["starter"] = "../starter.py" },
		"hidden path":     func(m map[string]any) { ex(m)["starter"] = "a/.b.py" },
		"instructions md": func(m map[string]any) { ex(m)["instructions"].(map[string]any)["en"] = "a.txt" },
		"no checks":       func(m map[string]any) { ex(m)["checks"] = []any{} },
		"check type":      func(m map[string]any) { check(m, 0)["type"] = "magic" },
		"match":           func(m map[string]any) { check(m, 0)["match"] = "fuzzy" },
		"tolerance":       func(m map[string]any) { check(m, 2)["tolerance"] = -1.0 },
		"turtle rule":     func(m map[string]any) { check(m, 2)["rule"] = "spiral" },
		"polygon sides":   func(m map[string]any) { delete(check(m, 2), "sides") },
		"position":        func(m map[string]any) { delete(check(m, 3), "y") },
		"source rule":     func(m map[string]any) { check(m, 4)["rule"] = "uses_magic" },
		"calls name": func(m map[string]any) {
			check(m, 4)["rule"] = "calls"
		},
		"code file":     func(m map[string]any) { delete(check(m, 6), "file") },
		"message en":    func(m map[string]any) { delete(check(m, 0)["message"].(map[string]any), "en") },
		"unknown field": func(m map[string]any) { check(m, 0)["tolerence"] = 1.0 },
		"colour":        func(m map[string]any) { check(m, 2)["rule"] = "colors_used"; check(m, 2)["colors"] = []any{"red"} },
		"events path":   func(m map[string]any) { check(m, 0)["events"] = "keys.json" },
		"events turtle": func(m map[string]any) { check(m, 2)["events"] = "keys.jsonl" },
	}
	names := make([]string, 0, len(edits))
	for k := range edits {
		names = append(names, k)
	}
	sort.Strings(names)
	src, err := os.ReadFile("scaffold/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(src, &m); err != nil {
				t.Fatal(err)
			}
			edits[name](m)
			schemaErrs := sv.validate(sv.root, m, "pack.json")
			b, _ := json.Marshal(m)
			man, goErr := ParseManifest(b, "pack.json")
			if goErr == nil {
				goErr = man.Validate("pack.json", false)
			}
			if len(schemaErrs) == 0 {
				t.Error("the schema accepts it")
			}
			if goErr == nil {
				t.Error("Validate accepts it")
			}
		})
	}
}

func ex(m map[string]any) map[string]any {
	return m["exercises"].([]any)[0].(map[string]any)
}

func check(m map[string]any, i int) map[string]any {
	return ex(m)["checks"].([]any)[i].(map[string]any)
}
