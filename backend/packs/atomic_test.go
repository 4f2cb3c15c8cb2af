package packs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// versions are what the concurrent updates import, each marking every file
// it installs with its version.
var versions = []string{"1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5"}

// versionedPacks builds the scaffold, with a data file, once per version;
// every file but the starter (the child's from the first import on) says
// which version it comes from.
func versionedPacks(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, v := range versions {
		src := scaffoldDir(t)
		withData(t, src)
		for _, f := range []string{"instructions.zh.md", "instructions.en.md", "check_square.py", "sizes.txt"} {
			p := filepath.Join(src, "exercises/square", f)
			writeFile(t, p, readFile(t, p)+"\n# version "+v+"\n")
		}
		editManifest(t, src, func(m *Manifest) {
			m.Version = v
			m.Exercises[0].Hints[0].En = "hint of version " + v
		})
		out[v] = buildTo(t, src)
	}
	return out
}

// checkWhole fails unless the lessons folder holds the pack once, at
// version want, every file of it from that version: the record, the
// instructions and checks kept with it, and the files beside the lessons.
func checkWhole(t *testing.T, lessonsDir, want string) {
	t.Helper()
	folders := packFolders(t, lessonsDir)
	if len(folders) != 1 {
		t.Fatalf("the pack is in %d folders: %v", len(folders), folders)
	}
	root := filepath.Join(lessonsDir, folders[0])
	in, err := readInstalled(root)
	if err != nil {
		t.Fatal(err)
	}
	got := in.Manifest.Version
	if got != want {
		t.Errorf("installed version %s, want %s", got, want)
	}
	if h := in.Manifest.Exercises[0].Hints[0].En; h != "hint of version "+got {
		t.Errorf("record of %s holds the hints of another version: %q", got, h)
	}
	mark := "# version " + got + "\n"
	var mixed []string
	check := func(p string) {
		if b, err := os.ReadFile(p); err != nil || !strings.HasSuffix(string(b), mark) {
			rel, _ := filepath.Rel(lessonsDir, p)
			mixed = append(mixed, fmt.Sprintf("%s (%q)", rel, lastLine(string(b))))
		}
	}
	for _, f := range []string{"01-square.md", "sizes.txt"} {
		check(filepath.Join(root, f))
	}
	filepath.WalkDir(filepath.Join(root, MetaDir, filesDir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, "starter.py") {
			check(p)
		}
		return nil
	})
	if len(mixed) > 0 {
		t.Errorf("version %s is installed, but these files are of another: %s", got, strings.Join(mixed, ", "))
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestConcurrentUpdatesLeaveOneVersion: updates to 1.0.1…1.0.5 imported at
// once, round after round, always leave one whole version, the newest,
// in one folder: never the manifest of one, the instructions of another
// and the data of a third.
func TestConcurrentUpdatesLeaveOneVersion(t *testing.T) {
	files := versionedPacks(t)
	for round := 0; round < 8; round++ {
		lessonsDir := t.TempDir()
		if _, err := Import(files["1.0.0"], lessonsDir, "en"); err != nil {
			t.Fatal(err)
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, v := range versions[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if _, err := Import(files[v], lessonsDir, "en"); err != nil && !errors.Is(err, ErrOlderVersion) {
					t.Errorf("import %s: %v", v, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		checkWhole(t, lessonsDir, versions[len(versions)-1])
		if t.Failed() {
			t.Fatalf("round %d", round)
		}
	}
}

// TestConcurrentFirstImportsMakeOneFolder: the same new pack imported
// twice at once lands in one folder, not in "Title" and "Title (2)".
func TestConcurrentFirstImportsMakeOneFolder(t *testing.T) {
	files := versionedPacks(t)
	for round := 0; round < 8; round++ {
		lessonsDir := t.TempDir()
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if _, err := Import(files["1.0.5"], lessonsDir, "en"); err != nil {
					t.Errorf("import: %v", err)
				}
			}()
		}
		close(start)
		wg.Wait()
		checkWhole(t, lessonsDir, "1.0.5")
		if t.Failed() {
			t.Fatalf("round %d", round)
		}
	}
}

// helperEnv makes the test binary, run again, the helper process below.
const helperEnv = "KIDCODER_PACKS_IMPORT_HELPER"

// TestImportHelperProcess is another program importing into the same
// lessons folder (the window and `kidcoder pack import`): it waits until
// its stdin closes, so that all helpers start together, then imports the
// pack files it is given in turn.
func TestImportHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("only run as a helper process")
	}
	var job struct {
		Lessons string   `json:"lessons"`
		Files   []string `json:"files"`
	}
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, os.Stdin)
	for _, f := range job.Files {
		if _, err := Import(f, job.Lessons, "en"); err != nil && !errors.Is(err, ErrOlderVersion) {
			t.Fatalf("import %s: %v", f, err)
		}
	}
}

// TestConcurrentUpdatesAcrossProcesses is TestConcurrentUpdatesLeaveOneVersion
// with the updates coming from separate processes, and from this one.
func TestConcurrentUpdatesAcrossProcesses(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("in a helper")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	files := versionedPacks(t)
	for round := 0; round < 4; round++ {
		lessonsDir := t.TempDir()
		if _, err := Import(files["1.0.0"], lessonsDir, "en"); err != nil {
			t.Fatal(err)
		}
		var helpers []*exec.Cmd
		var releases []io.WriteCloser
		var outs []*strings.Builder
		for i, v := range versions[1:] {
			// Each helper imports its version and then an older one, so
			// refused downgrades race with updates too.
			job, _ := json.Marshal(map[string]any{"lessons": lessonsDir, "files": []string{files[v], files[versions[1+(i+2)%5]]}})
			cmd := exec.Command(exe, "-test.run=^TestImportHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperEnv+"="+string(job))
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			release, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			helpers, releases, outs = append(helpers, cmd), append(releases, release), append(outs, out)
		}
		for _, r := range releases {
			r.Close()
		}
		// This process imports too, while the helpers do.
		for _, v := range []string{"1.0.3", "1.0.1", "1.0.4"} {
			if _, err := Import(files[v], lessonsDir, "en"); err != nil && !errors.Is(err, ErrOlderVersion) {
				t.Errorf("import %s: %v", v, err)
			}
		}
		for i, cmd := range helpers {
			if err := cmd.Wait(); err != nil {
				t.Errorf("helper %d: %v\n%s", i, err, outs[i])
			}
		}
		checkWhole(t, lessonsDir, versions[len(versions)-1])
		if t.Failed() {
			t.Fatalf("round %d", round)
		}
	}
}
