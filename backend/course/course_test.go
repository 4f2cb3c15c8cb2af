package course

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/kidrun/kidruntest"
	"kidcoder/backend/packs"
	"kidcoder/sandbox"
)

// TestNamesMatchFolders keeps the course order and the source folders in step.
func TestNamesMatchFolders(t *testing.T) {
	entries, err := os.ReadDir("packs")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, e.Name())
	}
	want := slices.Sorted(slices.Values(Names()))
	if !slices.Equal(dirs, want) {
		t.Errorf("folders %v, course order %v", dirs, Names())
	}
	if _, err := Sources("../turtle-shapes"); err == nil {
		t.Error("a path outside the course was accepted")
	}
}

// TestPacksBuild builds every pack (twice: builds are deterministic) and
// holds each exercise to the course's own rules, beyond what the format
// requires: a reference solution, two hints or more, and every Markdown
// instruction in both languages.
func TestPacksBuild(t *testing.T) {
	total := 0
	for _, name := range Names() {
		b, err := Build(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, err := Build(name)
		if err != nil || !bytes.Equal(b, again) {
			t.Errorf("%s: two builds differ (%v)", name, err)
		}
		p, err := packs.ReadPack(name+".kidpack", b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, ex := range p.Manifest.Exercises {
			total++
			if ex.Solution == "" {
				t.Errorf("%s/%s: no reference solution", name, ex.ID)
			}
			if len(ex.Hints) < 2 {
				t.Errorf("%s/%s: %d hint(s), want at least 2", name, ex.ID, len(ex.Hints))
			}
			for lang, f := range map[string]string{"zh": ex.Instructions.Zh, "en": ex.Instructions.En} {
				md, _ := p.File(f)
				if !strings.HasPrefix(string(md), "# ") {
					t.Errorf("%s/%s: the %s instructions do not start with a title", name, ex.ID, lang)
				}
			}
		}
	}
	if total < 25 {
		t.Errorf("%d exercises in the course, want at least 25", total)
	}
}

// runner is the real sandbox, or a skip when this machine has none (and
// KIDCODER_REQUIRE_SANDBOX is not set, as in `make test`).
func runner(t *testing.T) packs.Runner {
	t.Helper()
	if testing.Short() {
		t.Skip("runs programs in the sandbox")
	}
	// The course's checks do real work, side by side: their verdicts must
	// not rest on a busy machine's speed under a child's time bound.
	eng, err := kidrun.New(kidrun.Options{CacheDir: filepath.Join(os.TempDir(), "kidcoder-course-test-cache"), Policy: kidruntest.RoomyPolicy()})
	if err == nil {
		_, err = eng.Check(context.Background())
	}
	if (errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython)) && os.Getenv("KIDCODER_REQUIRE_SANDBOX") == "" {
		t.Skipf("sandbox unavailable: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return packs.EngineRunner{Engine: eng}
}

// TestExercisesInSandbox is `kidcoder pack check` for the whole course:
// every reference solution passes every check and every starter fails at
// least one, each run really executed in the sandbox. Exercises run in
// parallel: the games spend most of their time waiting for their events.
func TestExercisesInSandbox(t *testing.T) {
	r := runner(t)
	for _, name := range Names() {
		p, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		files, cleanup, err := p.Materialize()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cleanup) // after the parallel subtests below
		for i := range p.Manifest.Exercises {
			ex := &p.Manifest.Exercises[i]
			t.Run(name+"/"+ex.ID, func(t *testing.T) {
				t.Parallel()
				// The two runs wait on their timelines side by side.
				var starter *packs.Report
				var starterErr error
				done := make(chan struct{})
				go func() {
					defer close(done)
					code, _ := p.File(ex.Starter)
					starter, starterErr = packs.CheckExercise(context.Background(), r, files, ex, code, "zh")
				}()
				code, _ := p.File(ex.Solution)
				rep, err := packs.CheckExercise(context.Background(), r, files, ex, code, "en")
				<-done
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range rep.Failed() {
					t.Errorf("the solution fails checks[%d] (%s): %s / %s", c.Index, c.Type, c.Message, c.Detail)
				}
				if starterErr != nil {
					t.Fatal(starterErr)
				}
				if starter.Passed {
					t.Errorf("the starter already passes every check")
				}
			})
		}
	}
}
