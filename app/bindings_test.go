package app

import (
	"fmt"
	"os"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The frontend's calls into Go come from the definition Wails generates
// (`make bindings`) and the repo commits. These tests hold it to the bound
// methods, so a Go change without regenerated bindings fails here, where the
// Wails CLI is not needed.
const bindingsDir = "../frontend/src/lib/wailsjs/go"

// boundMethods are the methods Wails binds: every exported method of *App.
func boundMethods() []reflect.Method {
	return slices.Collect(reflect.TypeFor[*App]().Methods())
}

// signature is what App.d.ts says of a method: its number of arguments, and
// whether its Promise gives nothing.
type signature struct {
	args int
	void bool
}

func (s signature) String() string {
	if s.void {
		return fmt.Sprintf("%d arguments, giving nothing", s.args)
	}
	return fmt.Sprintf("%d arguments, giving a value", s.args)
}

// App.d.ts declares exactly the bound methods, each with its number of
// arguments, and a Promise<void> exactly for those that give back nothing
// but an error.
func TestBindingsDeclareBoundMethods(t *testing.T) {
	b, err := os.ReadFile(bindingsDir + "/app/App.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`^export function ([A-Za-z]+)\((.*)\):Promise<(.*)>;$`)
	arg := regexp.MustCompile(`\barg\d+:`)
	declared := map[string]signature{}
	for _, line := range strings.Split(string(b), "\n") {
		m := decl.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "export function") {
				t.Errorf("App.d.ts: cannot read %q", line)
			}
			continue
		}
		if _, dup := declared[m[1]]; dup {
			t.Errorf("App.d.ts declares %s twice", m[1])
		}
		declared[m[1]] = signature{args: len(arg.FindAllString(m[2], -1)), void: m[3] == "void"}
	}
	errorType := reflect.TypeFor[error]()
	for _, m := range boundMethods() {
		got, ok := declared[m.Name]
		if !ok {
			t.Errorf("bound method %s is not in App.d.ts: run make bindings", m.Name)
			continue
		}
		delete(declared, m.Name)
		void := true
		for out := range m.Type.Outs() {
			void = void && out == errorType
		}
		// The first In is the receiver.
		want := signature{args: m.Type.NumIn() - 1, void: void}
		if got != want {
			t.Errorf("App.d.ts declares %s with %v, the Go method has %v: run make bindings", m.Name, got, want)
		}
	}
	for name := range declared {
		t.Errorf("App.d.ts declares %s, which the app does not bind: run make bindings", name)
	}
}

// models.ts has a class for every struct the bound methods take or give,
// named package.Type, with exactly the fields encoding/json writes.
func TestBindingsModelsMatchGoTypes(t *testing.T) {
	b, err := os.ReadFile(bindingsDir + "/models.ts")
	if err != nil {
		t.Fatal(err)
	}
	namespace := regexp.MustCompile(`^export namespace (\w+) \{`)
	class := regexp.MustCompile(`^\s*export class (\w+) \{`)
	field := regexp.MustCompile(`^\s*(\w+)\??: .*;$`)
	generated := map[string][]string{}
	var ns, cls string
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case namespace.MatchString(line):
			ns = namespace.FindStringSubmatch(line)[1]
		case class.MatchString(line):
			cls = ns + "." + class.FindStringSubmatch(line)[1]
			generated[cls] = []string{}
		case strings.Contains(line, "createFrom"):
			cls = "" // the fields come first
		case cls != "" && field.MatchString(line):
			generated[cls] = append(generated[cls], field.FindStringSubmatch(line)[1])
		}
	}

	want := map[string][]string{}
	for _, m := range boundMethods() {
		for _, in := range slices.Collect(m.Type.Ins())[1:] { // after the receiver
			collectStructs(in, want)
		}
		for out := range m.Type.Outs() {
			collectStructs(out, want)
		}
	}
	for name, fields := range want {
		got, ok := generated[name]
		if !ok {
			t.Errorf("models.ts has no class %s: run make bindings", name)
			continue
		}
		if !slices.Equal(got, fields) {
			t.Errorf("models.ts class %s has fields %v, Go sends %v: run make bindings", name, got, fields)
		}
	}
	for name := range generated {
		if _, ok := want[name]; !ok {
			t.Errorf("models.ts has class %s, which no bound method takes or gives: run make bindings", name)
		}
	}
	if len(want) == 0 {
		t.Fatal("no structs found in the bound methods")
	}
}

// collectStructs records every struct reachable from ty, as package.Type,
// with the names encoding/json gives its fields. A Go time is JSON text,
// not a class.
func collectStructs(ty reflect.Type, into map[string][]string) {
	switch ty.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		collectStructs(ty.Elem(), into)
		return
	case reflect.Struct:
	default:
		return
	}
	if ty == reflect.TypeFor[time.Time]() || ty.Name() == "" {
		return
	}
	name := path.Base(ty.PkgPath()) + "." + ty.Name()
	if _, seen := into[name]; seen {
		return
	}
	into[name] = nil // a Node holds Nodes
	into[name] = jsonFields(ty, into)
}

// jsonFields are ty's field names as encoding/json writes them: an
// untagged embedded struct's fields in its place.
func jsonFields(ty reflect.Type, into map[string][]string) []string {
	var names []string
	for f := range ty.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			names = append(names, jsonFields(f.Type, into)...)
		case !f.IsExported():
		default:
			if tag == "" {
				tag = f.Name
			}
			names = append(names, tag)
			collectStructs(f.Type, into)
		}
	}
	return names
}
