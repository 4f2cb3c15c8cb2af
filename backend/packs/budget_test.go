package packs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// withChecks rewrites the scaffold's first exercise to hold checks.
func withChecks(t *testing.T, checks []any) string {
	t.Helper()
	dir := scaffoldDir(t)
	p := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(p)
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(b, &m))
	m["exercises"].([]any)[0].(map[string]any)["checks"] = checks
	b, err = json.Marshal(m)
	must(t, err)
	must(t, os.WriteFile(p, b, 0o644))
	return dir
}

func outputCheck(stdin string) map[string]any {
	return map[string]any{"type": "output", "stdin": stdin, "expect": "x", "match": "contains",
		"message": map[string]any{"zh": "再试试。", "en": "Try again."}}
}

// A pack cannot ask for more than one exercise's budget: a thousand
// checks, more runs than MaxCheckRuns, and events that last an hour are
// refused when it is built and again when it is imported, each naming the
// field, as ErrCheckBounds where the bound is the budget's.
func TestPackChecksWithinTheBudget(t *testing.T) {
	many := func(n int) []any {
		var out []any
		for i := range n {
			out = append(out, outputCheck(strconv.Itoa(i)+"\n"))
		}
		return out
	}
	if _, err := Build(withChecks(t, many(1000))); !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), "exercises[0].checks: must hold 1–50 checks") {
		t.Errorf("1000 checks: %v", err)
	}
	_, err := Build(withChecks(t, many(MaxCheckRuns+1)))
	if !errors.Is(err, ErrCheckBounds) || !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), "exercises[0].checks: the checks need 11 runs") {
		t.Errorf("%d runs: %v", MaxCheckRuns+1, err)
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "exercises[0].checks" {
		t.Errorf("the bound's error names no field: %v", err)
	}
	// Fifty checks in one run are within the bound: runs are what take time.
	same := make([]any, MaxChecks)
	for i := range same {
		same[i] = outputCheck("1\n")
	}
	if _, err := Build(withChecks(t, same)); err != nil {
		t.Errorf("%d checks sharing a run: %v", MaxChecks, err)
	}

	hour := `{"at_ms": 3600000, "type": "key", "key": "Up"}` + "\n"
	if _, err := Build(gamePack(t, hour, nil)); !errors.Is(err, ErrCheckBounds) || !strings.Contains(err.Error(), "exercises[1].checks: the events files of its checks last 1h0m1s") {
		t.Errorf("an hour of events: %v", err)
	}
	// Two runs of 31 s each pass the bound together, one alone does not.
	half := `{"at_ms": 30000, "type": "key", "key": "Up"}` + "\n"
	if _, err := Build(gamePack(t, half, nil)); err != nil {
		t.Errorf("31 s of events: %v", err)
	}
	if _, err := Build(gamePack(t, half, func(c map[string]any) { c["stdin"] = "1\n" })); err != nil {
		t.Errorf("31 s of events with a stdin: %v", err)
	}
	twice := gamePack(t, half, nil)
	p := filepath.Join(twice, ManifestName)
	b, err := os.ReadFile(p)
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(b, &m))
	game := m["exercises"].([]any)[1].(map[string]any)
	other := map[string]any{}
	for k, v := range game["checks"].([]any)[0].(map[string]any) {
		other[k] = v
	}
	other["stdin"] = "again\n"
	game["checks"] = append(game["checks"].([]any), other)
	b, err = json.Marshal(m)
	must(t, err)
	must(t, os.WriteFile(p, b, 0o644))
	if _, err := Build(twice); !errors.Is(err, ErrCheckBounds) || !strings.Contains(err.Error(), "last 1m2s together") {
		t.Errorf("two runs of 31 s of events: %v", err)
	}

	// A built pack whose events file was swapped for an hour-long one,
	// with the manifest's checksums made to agree, is refused at import.
	built, err := Build(gamePack(t, gameEvents, nil))
	must(t, err)
	es := entriesOf(t, built)
	for i := range es {
		if es[i].name == "exercises/game/keys.jsonl" {
			es[i].data = []byte(hour)
		}
	}
	mf := manifestOf(t, es)
	for _, f := range mf["files"].([]any) {
		f := f.(map[string]any)
		if f["path"] == "exercises/game/keys.jsonl" {
			f["size"], f["sha256"] = len(hour), sha([]byte(hour))
		}
	}
	if _, err := ReadPack("game.kidpack", makeZip(t, withManifest(t, es, mf))); !errors.Is(err, ErrCheckBounds) {
		t.Errorf("a swapped hour-long events file: %v", err)
	}
}
