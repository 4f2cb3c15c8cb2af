package contract

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"kidcoder/backend/kidrun"
	"kidcoder/sandbox"
)

var update = flag.Bool("update", false, "write the generated TypeScript")

// genPath is the window's and the card's copy of the run's types.
var genPath = filepath.Join("..", "..", "frontend", "src", "lib", "contract.gen.ts")

// TestTypeScriptIsGenerated fails on any drift between the Go types and
// the window's: run `go test ./backend/contract -update` after changing one.
func TestTypeScriptIsGenerated(t *testing.T) {
	want := TypeScript()
	if *update {
		if err := os.WriteFile(genPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(genPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is not what the Go types say; run `go test ./backend/contract -update`", genPath)
	}
}

// TestStatusesAreTheSandboxs: the result's status enum is every verdict
// the sandbox gives, and nothing else.
func TestStatusesAreTheSandboxs(t *testing.T) {
	want := []string{}
	for _, s := range []sandbox.Status{sandbox.StatusOK, sandbox.StatusError, sandbox.StatusTimeout, sandbox.StatusMemory,
		sandbox.StatusOutput, sandbox.StatusKilled, sandbox.StatusUnavailable} {
		want = append(want, string(s))
	}
	if got := statuses(); !slices.Equal(got, want) {
		t.Errorf("status enum %v, sandbox statuses %v", got, want)
	}
}

// TestResultSchemaFitsResults: every field a result sends is in the
// schema, with a type that accepts its value, and the required ones are
// always sent.
func TestResultSchemaFitsResults(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(ResultSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	line := 3
	res := kidrun.Result{Status: "error", Error: &kidrun.ErrorInfo{Type: "NameError", Line: &line}, Images: []kidrun.Image{{Mime: "image/png", Data: "AA=="}},
		Drawing: json.RawMessage(`{"steps":[]}`), Stopped: true, Limit: "quiet", Outcome: &kidrun.Outcome{Key: "limit.quiet", Values: map[string]string{"minutes": "5"}},
		Message: "m", Notices: []string{"n"}, Checks: []kidrun.CheckResult{{OK: true}}}
	b, _ := json.Marshal(res)
	var sent map[string]any
	_ = json.Unmarshal(b, &sent)
	for k, v := range sent {
		p, ok := schema.Properties[k]
		if !ok {
			t.Errorf("field %q is sent but not in the schema", k)
			continue
		}
		if p.Type != nil && !accepts(p.Type, v) {
			t.Errorf("field %q: schema type %v does not accept %T", k, p.Type, v)
		}
	}
	var empty map[string]any
	b, _ = json.Marshal(kidrun.Result{})
	_ = json.Unmarshal(b, &empty)
	for _, k := range schema.Required {
		if _, ok := empty[k]; !ok {
			t.Errorf("required field %q is left out of an empty result", k)
		}
	}
}

func accepts(typ any, v any) bool {
	kinds := []string{}
	switch x := typ.(type) {
	case string:
		kinds = append(kinds, x)
	case []any:
		for _, k := range x {
			kinds = append(kinds, k.(string))
		}
	}
	var kind string
	switch v.(type) {
	case nil:
		kind = "null"
	case string:
		kind = "string"
	case bool:
		kind = "boolean"
	case float64:
		kind = "number"
	case []any:
		kind = "array"
	case map[string]any:
		kind = "object"
	}
	return slices.Contains(kinds, kind) || kind == "number" && slices.Contains(kinds, "integer")
}

// TestEveryTypeIsNamed: a struct the exported types hold is exported too.
func TestEveryTypeIsNamed(t *testing.T) {
	names := tsNames()
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		switch rt.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			walk(rt.Elem())
		case reflect.Struct:
			if _, ok := names[rt]; !ok {
				t.Errorf("%s is used but has no TypeScript name", rt)
			}
		}
	}
	for _, n := range exported {
		for _, f := range fields(n.typ) {
			walk(f.f.Type)
		}
	}
}
