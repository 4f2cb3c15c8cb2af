package packs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/text"
)

// gameStarter and gameSolution are a game exercise: the solution moves on
// the Up key, the starter forgets to listen. The first key comes after a
// second: keys before listen() are dropped, and on a loaded machine (the
// whole suite at once) the program can take that long to get there.
const (
	gameSolution = "import turtle\nt = turtle.Turtle()\ndef up():\n    t.forward(10)\n    print('AT', t.position())\nturtle.listen()\nturtle.onkey(up, 'Up')\nturtle.done()\n"
	gameStarter  = "import turtle\nt = turtle.Turtle()\ndef up():\n    t.forward(10)\n    print('AT', t.position())\nturtle.onkey(up, 'Up')\nturtle.done()\n"
	gameEvents   = `{"at_ms": 1000, "type": "key", "key": "Up"}` + "\n" + `{"at_ms": 1300, "type": "key", "key": "Up"}` + "\n"
)

// gamePack is the scaffold source folder with a second exercise, a game
// whose output check plays events; edit may change its check and files.
func gamePack(t *testing.T, events string, edit func(m map[string]any)) string {
	t.Helper()
	dir := scaffoldDir(t)
	write := func(name, body string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	write("exercises/game/starter.py", gameStarter)
	write("exercises/game/solution.py", gameSolution)
	write("exercises/game/keys.jsonl", events)
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(b, &m))
	sq := m["exercises"].([]any)[0].(map[string]any)
	m["exercises"] = append(m["exercises"].([]any), map[string]any{
		"id":           "02-game",
		"title":        map[string]any{"zh": "方向键", "en": "Arrow keys"},
		"instructions": sq["instructions"],
		"starter":      "exercises/game/starter.py",
		"solution":     "exercises/game/solution.py",
		"checks": []any{map[string]any{
			"type": "output", "events": "exercises/game/keys.jsonl", "match": "contains", "expect": "AT (20.00,0.00)",
			"message": map[string]any{"zh": "按两次上箭头，海龟应该走到 (20, 0)。", "en": "After Up twice the turtle should be at (20, 0)."},
		}},
	})
	if edit != nil {
		edit(m["exercises"].([]any)[1].(map[string]any)["checks"].([]any)[0].(map[string]any))
	}
	b, err = json.Marshal(m)
	must(t, err)
	write(ManifestName, string(b))
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// An events file is part of the pack: built, listed, checked line by line
// at build and again at import, and only an output check may name one.
func TestPackEventsValidated(t *testing.T) {
	b, err := Build(gamePack(t, gameEvents, nil))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadPack("game.kidpack", b)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := p.File("exercises/game/keys.jsonl"); !ok || string(got) != gameEvents {
		t.Fatalf("the events file is not in the built pack: %q", got)
	}
	field := "exercises[1].checks[0].events"
	for _, tt := range []struct {
		name, events string
		edit         func(m map[string]any)
		want         error
		says         string
	}{
		{"bad line", gameEvents + `{"at_ms": 1600, "type": "key", "key": "Up Arrow"}` + "\n", nil, ErrManifest, "line 3"},
		{"not JSON", "{\n", nil, ErrManifest, "line 1"},
		{"too many events", strings.Repeat(`{"at_ms": 1, "type": "close"}`+"\n", kidrun.MaxTimelineEvents+1), nil, ErrManifest, "10000"},
		{"not .jsonl", gameEvents, func(m map[string]any) { m["events"] = "exercises/game/keys.json" }, ErrManifest, ".jsonl"},
		{"outside the pack", gameEvents, func(m map[string]any) { m["events"] = "../keys.jsonl" }, ErrManifest, "unsafe"},
		{"missing", gameEvents, func(m map[string]any) { m["events"] = "exercises/game/none.jsonl" }, ErrMissing, "none.jsonl"},
		{"on a turtle check", gameEvents, func(m map[string]any) {
			m["type"], m["rule"], m["count"] = "turtle", "min_segments", 1
			delete(m, "match")
			delete(m, "expect")
		}, ErrManifest, "only an output check"},
	} {
		_, err := Build(gamePack(t, tt.events, tt.edit))
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, want %v saying %q", tt.name, err, tt.want, tt.says)
		}
		if tt.want == ErrManifest && tt.name != "not .jsonl" && tt.name != "outside the pack" && !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v does not name %s", tt.name, err, field)
		}
	}
	// A built pack whose events file was swapped for a bad one, with the
	// manifest's checksums made to agree, is refused at import.
	es := entriesOf(t, b)
	bad := []byte(`{"at_ms": 1, "type": "explode"}` + "\n")
	for i := range es {
		if es[i].name == "exercises/game/keys.jsonl" {
			es[i].data = bad
		}
	}
	m := manifestOf(t, es)
	for _, f := range m["files"].([]any) {
		f := f.(map[string]any)
		if f["path"] == "exercises/game/keys.jsonl" {
			f["size"], f["sha256"] = len(bad), sha(bad)
		}
	}
	if _, err := ReadPack("game.kidpack", makeZip(t, withManifest(t, es, m))); !errors.Is(err, ErrManifest) || !strings.Contains(err.Error(), field) {
		t.Errorf("a swapped events file: %v", err)
	}
}

// Output checks that share a stdin but not an events file get runs of
// their own; the run with events gets the file's timeline.
func TestCheckExerciseWithEvents(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys.jsonl")
	must(t, os.WriteFile(keys, []byte(gameEvents), 0o644))
	msg := text.Text{Zh: "游戏", En: "game"}
	ex := Exercise{ID: "game", Checks: []Check{
		{Type: CheckOutput, Events: "keys.jsonl", Expect: "AT (20.00,0.00)", Match: MatchContains, Message: msg},
		{Type: CheckOutput, Expect: "ready", Match: MatchContains, Message: msg},
		{Type: CheckOutput, Events: "keys.jsonl", Expect: "AT (10.00,0.00)", Match: MatchContains, Message: msg},
	}}
	r := &fakeRunner{fn: func(req RunRequest) *RunResult {
		if req.Events == nil {
			return &RunResult{Status: "ok", Stdout: "ready\n"}
		}
		return &RunResult{Status: "ok", Stdout: "AT (10.00,0.00)\nAT (20.00,0.00)\n"}
	}}
	rep, err := CheckExercise(context.Background(), r, mapFiles{"keys.jsonl": keys}, &ex, []byte("code"), "en")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.reqs) != 2 || !rep.Passed {
		t.Fatalf("%d runs, passed %v: %+v", len(r.reqs), rep.Passed, rep.Results)
	}
	for _, req := range r.reqs {
		if req.Events != nil && (len(req.Events) != 5 || req.Events[4].Event.Type != "close") {
			t.Errorf("timeline %+v", req.Events)
		}
	}
	// An events file changed for the worse where the pack is installed
	// stops the check with an error instead of running without it.
	must(t, os.WriteFile(keys, []byte("nonsense\n"), 0o644))
	if _, err := CheckExercise(context.Background(), r, mapFiles{"keys.jsonl": keys}, &ex, []byte("code"), "en"); !errors.Is(err, kidrun.ErrBadTimeline) {
		t.Errorf("a damaged events file: %v", err)
	}
}

// `pack check` for real: the game's solution answers the keys, the starter
// (which never listens) does not, each run live in the sandbox.
func TestVerifyGameInSandbox(t *testing.T) {
	r := realRunner(t)
	b, err := Build(gamePack(t, gameEvents, nil))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadPack("game.kidpack", b)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := p.Verify(context.Background(), r, "en")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || !vs[1].OK || !vs[1].Solution.Passed || vs[1].Starter.Passed {
		t.Fatalf("verdicts %+v", vs)
	}
}
