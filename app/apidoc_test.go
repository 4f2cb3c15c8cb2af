package app

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/app-api.md is the API the frontend relies on: every method Wails
// binds (every exported method of *App) has its row there, and every row
// names a bound method.
func TestAPIDocMatchesBoundMethods(t *testing.T) {
	b, err := os.ReadFile("../docs/app-api.md")
	if err != nil {
		t.Fatal(err)
	}
	// A method row starts with one or more `Name(...)` cells' names: "| `Run(req)` |"
	// or "| `NewLesson(group, name)` / `NewGroup(parent, name)` |".
	row := regexp.MustCompile("^\\| (`[A-Z][A-Za-z]*\\([^`]*\\)`(?: / `[A-Z][A-Za-z]*\\([^`]*\\)`)*) \\|")
	name := regexp.MustCompile("`([A-Z][A-Za-z]*)\\(")
	var documented []string
	for _, line := range strings.Split(string(b), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, n := range name.FindAllStringSubmatch(m[1], -1) {
			documented = append(documented, n[1])
		}
	}
	var bound []string
	ty := reflect.TypeOf(&App{})
	for i := 0; i < ty.NumMethod(); i++ {
		bound = append(bound, ty.Method(i).Name)
	}
	slices.Sort(documented)
	slices.Sort(bound)
	for _, n := range bound {
		if !slices.Contains(documented, n) {
			t.Errorf("bound method %s is not in docs/app-api.md", n)
		}
	}
	for _, n := range documented {
		if !slices.Contains(bound, n) {
			t.Errorf("docs/app-api.md documents %s, which the app does not bind", n)
		}
	}
	if len(documented) != len(slices.Compact(slices.Clone(documented))) {
		t.Errorf("a method is documented twice: %v", documented)
	}
}
