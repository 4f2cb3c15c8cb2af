package course

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kidcoder/backend/packs"
)

// strangerCopy builds a stranger's pack from the course's own sources with
// the course's id at version 9.9.9 and other instructions for its first
// exercise.
func strangerCopy(t *testing.T, name string) string {
	t.Helper()
	src, err := Sources(name)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, src); err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(dir, packs.ManifestName)
	b, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	m, err := packs.ParseManifest(b, mf)
	if err != nil {
		t.Fatal(err)
	}
	m.Version = "9.9.9"
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(m.Exercises[0].Instructions.En)), []byte("# Type your parent's password\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "stranger.kidpack")
	if err := packs.BuildFile(dir, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStrangerCannotTakeOverCourse: a file reusing a built-in pack's id at
// 9.9.9 is refused whether the course is imported yet or not; it replaces
// neither the course's instructions nor its checks, and the course stays
// importable (before the fix it then read "a newer version is already
// imported").
func TestStrangerCannotTakeOverCourse(t *testing.T) {
	for _, name := range Names() {
		real, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		stranger := strangerCopy(t, name)
		first := real.Manifest.Exercises[0]
		wantMD, _ := real.File(first.Instructions.En)

		// The stranger comes first.
		lessonsDir := t.TempDir()
		if _, err := packs.Import(stranger, lessonsDir, "en"); err == nil {
			t.Errorf("%s: the stranger's pack was imported into an empty lessons folder", name)
		}
		pl, err := packs.ImportPack(real, lessonsDir, "en")
		if err != nil {
			t.Fatalf("%s: the course can't be imported after the stranger's pack: %v", name, err)
		}
		if pl.Version != real.Manifest.Version {
			t.Errorf("%s: imported %s", name, pl.Version)
		}

		// The course comes first.
		if _, err := packs.Import(stranger, lessonsDir, "en"); err == nil {
			t.Errorf("%s: the stranger's pack was imported over the course", name)
		}
		root := filepath.Join(lessonsDir, pl.Folder)
		if got, err := os.ReadFile(filepath.Join(root, first.ID+".md")); err != nil || string(got) != string(wantMD) {
			t.Errorf("%s: the first lesson's instructions are %q (%v)", name, got, err)
		}
		in, err := packs.OpenInstalled(root)
		if err != nil {
			t.Fatal(err)
		}
		if in.Manifest.Version != real.Manifest.Version {
			t.Errorf("%s: the course's record says %s", name, in.Manifest.Version)
		}
		if md, err := in.Instructions(first.ID, "en"); err != nil || md != string(wantMD) {
			t.Errorf("%s: the window's instructions are %q (%v)", name, md, err)
		}
		if _, err := packs.ImportPack(real, lessonsDir, "en"); err != nil {
			t.Errorf("%s: the course no longer updates: %v", name, err)
		}
		entries, _ := os.ReadDir(lessonsDir)
		if len(entries) != 1 {
			t.Errorf("%s: %d folders in the lessons folder, want the course's alone", name, len(entries))
		}
	}
}

// editInstalled rewrites the .kidpack/installed.json of the pack folder dir through fn.
func editInstalled(t *testing.T, dir string, fn func(m map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, packs.MetaDir, "installed.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCourseImportedBeforeOrigins: a course imported by a Kid Coder that
// recorded no origins is updated in place, the child's progress with it;
// a stranger's pack of the course's id imported back then at 9.9.9 is left
// alone, and the course goes beside it, where the shelf finds it.
func TestCourseImportedBeforeOrigins(t *testing.T) {
	real, err := Load("turtle-shapes")
	if err != nil {
		t.Fatal(err)
	}
	lessonsDir := t.TempDir()
	pl, err := packs.ImportPack(real, lessonsDir, "en")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(lessonsDir, pl.Folder)
	editInstalled(t, root, func(m map[string]any) { delete(m, "origin") })
	if _, err := packs.RecordAttempt(root, real.Manifest.Exercises[0].ID, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	again, err := packs.ImportPack(real, lessonsDir, "en")
	if err != nil || again.Folder != pl.Folder || again.Previous != real.Manifest.Version {
		t.Fatalf("the older import was not updated in place: %+v, %v", again, err)
	}
	list, _ := packs.Summaries(lessonsDir)
	if s, ok := real.UpdatedIn(list); !ok || s.Folder != pl.Folder || s.Origin != packs.Builtin || s.Solved != 1 {
		t.Errorf("the shelf sees %+v (%v)", s, ok)
	}

	// A stranger's 9.9.9 from before, which no version of the course ever was.
	fresh := t.TempDir()
	pl, err = packs.ImportPack(real, fresh, "en")
	if err != nil {
		t.Fatal(err)
	}
	editInstalled(t, filepath.Join(fresh, pl.Folder), func(m map[string]any) {
		delete(m, "origin")
		m["manifest"].(map[string]any)["version"] = "9.9.9"
	})
	beside, err := packs.ImportPack(real, fresh, "en")
	if err != nil {
		t.Fatalf("the course was kept out by a stranger's 9.9.9: %v", err)
	}
	if beside.Folder == pl.Folder || beside.Previous != "" {
		t.Errorf("the course went into the stranger's folder: %+v", beside)
	}
	list, _ = packs.Summaries(fresh)
	if s, ok := real.UpdatedIn(list); !ok || s.Folder != beside.Folder {
		t.Errorf("the shelf sees %+v, want the course's own folder %q", s, beside.Folder)
	}
	if _, err := packs.ImportPack(real, fresh, "en"); err != nil {
		t.Errorf("the course no longer updates beside the stranger's pack: %v", err)
	}
}
