package packs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kidcoder/backend/text"
)

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editManifest rewrites the scaffold's pack.json through fn.
func editManifest(t *testing.T, dir string, fn func(m *Manifest)) {
	t.Helper()
	m, err := ParseManifest([]byte(readFile(t, filepath.Join(dir, ManifestName))), "pack.json")
	if err != nil {
		t.Fatal(err)
	}
	fn(m)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ManifestName), string(b))
}

func buildTo(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "p.kidpack")
	if err := BuildFile(dir, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func withData(t *testing.T, dir string) {
	writeFile(t, filepath.Join(dir, "exercises/square/sizes.txt"), "10\n20\n")
	editManifest(t, dir, func(m *Manifest) { m.Exercises[0].Data = []string{"exercises/square/sizes.txt"} })
}

func TestImportAndReimportKeepsChildCode(t *testing.T) {
	src := scaffoldDir(t)
	withData(t, src)
	v1 := buildTo(t, src)
	lessons := t.TempDir()

	pv, err := Preview(v1, lessons, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(lessons); len(left) != 0 {
		t.Fatal("Preview wrote files")
	}
	if pv.Folder != "我的第一个练习包" || len(pv.Exercises) != 1 || !pv.Exercises[0].New || pv.Previous != "" {
		t.Fatalf("preview: %+v", pv)
	}
	if strings.Join(pv.Writes, ",") != "我的第一个练习包/01-square.md,我的第一个练习包/01-square.py,我的第一个练习包/sizes.txt" {
		t.Errorf("preview writes %v", pv.Writes)
	}

	if _, err := Import(v1, lessons, "zh"); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(lessons, pv.Folder)
	if got := readFile(t, filepath.Join(root, "01-square.py")); got != readFile(t, filepath.Join(src, "exercises/square/starter.py")) {
		t.Errorf("lesson holds %q, want the starter", got)
	}
	if !strings.Contains(readFile(t, filepath.Join(root, "01-square.md")), "画正方形") {
		t.Error("instructions are not in Chinese")
	}
	if _, err := os.Stat(filepath.Join(root, MetaDir, filesDir, "exercises/square/check_square.py")); err != nil {
		t.Error("the check script was not installed")
	}
	filepath.WalkDir(lessons, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(readFile(t, p), "print(\"Perimeter:\", 4 * side)") {
			t.Errorf("the reference solution reached the lessons folder: %s", p)
		}
		return nil
	})

	// The child works on the lesson and changes the data; the teacher ships 1.1.0.
	childCode := "# my own square\nimport turtle\n"
	writeFile(t, filepath.Join(root, "01-square.py"), childCode)
	writeFile(t, filepath.Join(root, "sizes.txt"), "99\n")
	writeFile(t, filepath.Join(src, "exercises/square/instructions.zh.md"), "# 新的说明\n")
	writeFile(t, filepath.Join(src, "exercises/two/instructions.zh.md"), "# 第二题\n")
	writeFile(t, filepath.Join(src, "exercises/two/instructions.en.md"), "# Second\n")
	writeFile(t, filepath.Join(src, "exercises/two/starter.py"), "print()\n")
	editManifest(t, src, func(m *Manifest) {
		m.Version = "1.1.0"
		m.Exercises[0].Hints = append(m.Exercises[0].Hints, text.Text{Zh: "新提示", En: "new hint"})
		m.Exercises = append(m.Exercises, Exercise{ID: "02-two", Title: text.Text{Zh: "第二题", En: "Second"},
			Instructions: text.Text{Zh: "exercises/two/instructions.zh.md", En: "exercises/two/instructions.en.md"},
			Starter:      "exercises/two/starter.py",
			Checks:       []Check{{Type: CheckOutput, Expect: "hi", Message: text.Text{Zh: "打印 hi", En: "print hi"}}}})
	})
	// The child renamed the folder meanwhile: the import must still find it.
	moved := filepath.Join(lessons, "数学课")
	if err := os.Rename(root, moved); err != nil {
		t.Fatal(err)
	}
	v2 := buildTo(t, src)
	pl, err := Import(v2, lessons, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Folder != "数学课" || pl.Previous != "1.0.0" {
		t.Fatalf("re-import went to %q over %q", pl.Folder, pl.Previous)
	}
	if got := readFile(t, filepath.Join(moved, "01-square.py")); got != childCode {
		t.Fatalf("re-import overwrote the child's code: %q", got)
	}
	if got := readFile(t, filepath.Join(moved, "sizes.txt")); got != "99\n" {
		t.Errorf("re-import overwrote data the child changed: %q", got)
	}
	if got := readFile(t, filepath.Join(moved, "01-square.md")); got != "# 新的说明\n" {
		t.Errorf("instructions not updated: %q", got)
	}
	if got := readFile(t, filepath.Join(moved, "02-two.py")); got != "print()\n" {
		t.Errorf("new exercise: %q", got)
	}
	if !strings.Contains(strings.Join(pl.Kept, ","), "数学课/01-square.py") {
		t.Errorf("plan does not say the child's code is kept: %v", pl.Kept)
	}
	in, ex, err := FindLesson(filepath.Join(moved, "01-square.py"))
	if err != nil {
		t.Fatal(err)
	}
	if in.Manifest.Version != "1.1.0" || len(ex.Hints) != 4 || ex.Solution != "" {
		t.Errorf("installed metadata: version %s, %d hints, solution %q", in.Manifest.Version, len(ex.Hints), ex.Solution)
	}
	if dirs, _ := os.ReadDir(lessons); len(dirs) != 1 {
		t.Errorf("re-import made a second folder: %v", dirs)
	}

	// Importing the older version again is refused and changes nothing.
	if _, err := Import(v1, lessons, "zh"); !errors.Is(err, ErrOlderVersion) {
		t.Fatalf("downgrade: %v, want ErrOlderVersion", err)
	}
	if got := readFile(t, filepath.Join(moved, "01-square.md")); got != "# 新的说明\n" {
		t.Errorf("refused downgrade changed instructions: %q", got)
	}
}

func TestImportUntouchedDataIsUpdated(t *testing.T) {
	src := scaffoldDir(t)
	withData(t, src)
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, src), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Folder != "My first exercise pack" {
		t.Errorf("folder %q", pl.Folder)
	}
	writeFile(t, filepath.Join(src, "exercises/square/sizes.txt"), "30\n")
	editManifest(t, src, func(m *Manifest) { m.Version = "1.0.1" })
	if _, err := Import(buildTo(t, src), lessons, "en"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(lessons, pl.Folder, "sizes.txt")); got != "30\n" {
		t.Errorf("untouched data file not updated: %q", got)
	}
}

func TestImportNameClash(t *testing.T) {
	lessons := t.TempDir()
	writeFile(t, filepath.Join(lessons, "My first exercise pack", "mine.py"), "x = 1\n")
	pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Folder != "My first exercise pack (2)" {
		t.Fatalf("folder %q", pl.Folder)
	}
	if readFile(t, filepath.Join(lessons, "My first exercise pack", "mine.py")) != "x = 1\n" {
		t.Fatal("import touched an unrelated folder")
	}
}

func TestFolderName(t *testing.T) {
	for in, want := range map[string]string{
		"Turtle: basics/1":         "Turtle basics 1",
		"..hidden":                 "hidden",
		"  ":                       "fallback",
		"con":                      "fallback",
		"a\x00b":                   "a b",
		"第 1 周?":                   "第 1 周",
		"Homework \u202Egnp.py":    "Homework gnp.py",
		"\u2066Shapes\u2069\u200B": "Shapes",
		"👩\u200D💻 code":            "👩\u200D💻 code",
		"\u202E\uFEFF":             "fallback",
	} {
		if got := FolderName(in, "fallback"); got != want {
			t.Errorf("FolderName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImportTitleWithBidiOverride: a title that a right-to-left override
// would display reversed becomes a folder name without it.
func TestImportTitleWithBidiOverride(t *testing.T) {
	src := scaffoldDir(t)
	editManifest(t, src, func(m *Manifest) { m.Title.En = "Homework \u202Egnp.py" })
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, src), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Folder != "Homework gnp.py" {
		t.Fatalf("folder %+q", pl.Folder)
	}
	entries, _ := os.ReadDir(lessons)
	if len(entries) != 1 || entries[0].Name() != "Homework gnp.py" {
		t.Fatalf("lessons folder holds %v", entries)
	}
}

func TestProgressSurvivesReloadAndMove(t *testing.T) {
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(lessons, pl.Folder)
	in, err := OpenInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := in.RevealHint("01-square", "en")
	if err != nil || h.Index != 0 || h.Total != 3 || !strings.Contains(h.Text, "4 equal sides") {
		t.Fatalf("first hint: %+v %v", h, err)
	}
	h, _ = in.RevealHint("01-square", "zh")
	if h.Index != 1 || !strings.Contains(h.Text, "for _ in range(4)") {
		t.Fatalf("second hint: %+v", h)
	}
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		if _, err := RecordAttempt(dir, "01-square", false, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := RecordAttempt(dir, "01-square", true, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Solved || p.Attempts != 4 || p.Stars != 1 {
		t.Fatalf("after solving on the 4th try with hints: %+v", p)
	}
	p, _ = RecordAttempt(dir, "01-square", false, t0.Add(2*time.Hour))
	if !p.Solved || p.Stars != 1 {
		t.Fatalf("a later failing attempt lost the solve: %+v", p)
	}

	moved := filepath.Join(lessons, "sub")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	prog, err := LoadProgress(moved)
	if err != nil {
		t.Fatal(err)
	}
	got := prog["01-square"]
	if got.Attempts != 5 || got.HintsShown != 2 || !got.LastAttempt.Equal(t0.Add(2*time.Hour)) || !got.SolvedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("reloaded progress: %+v", got)
	}
	in2, _ := OpenInstalled(moved)
	shown, err := in2.ShownHints("01-square", "en")
	if err != nil || len(shown) != 2 {
		t.Fatalf("shown hints after reload: %v %v", shown, err)
	}
	sums, err := Summaries(lessons)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 1 || sums[0].Folder != "sub" || sums[0].Solved != 1 || sums[0].Attempts != 5 || sums[0].Stars != 1 || sums[0].MaxStars != 3 {
		t.Fatalf("summary: %+v", sums)
	}
	if entries, _ := os.ReadDir(filepath.Join(moved, MetaDir)); len(entries) != 3 {
		t.Errorf("metadata folder holds %d entries (temporary files left?)", len(entries))
	}
}

func TestCheckLessonRecordsAttempt(t *testing.T) {
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	lesson := filepath.Join(lessons, pl.Exercises[0].Lesson)
	var checkFiles []string
	r := &fakeRunner{fn: func(req RunRequest) *RunResult {
		checkFiles = append(checkFiles, req.CheckFiles...)
		return &RunResult{Status: "ok"}
	}}
	rep, p, err := CheckLesson(context.Background(), r, lesson, []byte("pass\n"), "en", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed || p.Attempts != 1 || p.Solved {
		t.Fatalf("report %+v progress %+v", rep, p)
	}
	if len(checkFiles) != 1 || !strings.HasPrefix(checkFiles[0], filepath.Join(lessons, pl.Folder, MetaDir)) {
		t.Errorf("check scripts came from %v", checkFiles)
	}
	if _, _, err := CheckLesson(context.Background(), r, filepath.Join(lessons, "other.py"), nil, "en", time.Now()); !errors.Is(err, ErrNotInPack) {
		t.Errorf("a plain lesson: %v, want ErrNotInPack", err)
	}
}

func TestInstalledRefusesPlantedLinks(t *testing.T) {
	lessons := t.TempDir()
	pl, err := Import(buildTo(t, scaffoldDir(t)), lessons, "en")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(lessons, pl.Folder)
	in, err := OpenInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	const check = "exercises/square/check_square.py"
	if _, err := in.HostPath(check); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	writeFile(t, secret, "top secret")
	target := filepath.Join(dir, MetaDir, filesDir, "exercises")
	if err := os.RemoveAll(target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(secret), target); err != nil {
		t.Skip("no symlinks here")
	}
	if _, err := in.HostPath(check); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("HostPath through a planted link: %v, want ErrNotRegular", err)
	}
}

// TestPlanKeptSince: a lesson the child made between the plan and the
// write is reported as kept, and its exercise as not new.
func TestPlanKeptSince(t *testing.T) {
	pl := &Plan{
		Writes:    []string{"p/01-a.md", "p/01-a.py", "p/02-b.py"},
		Kept:      []string{"p/data.txt"},
		Exercises: []PlannedExercise{{ID: "01-a", Lesson: "p/01-a.py", New: true}, {ID: "02-b", Lesson: "p/02-b.py", New: true}},
	}
	pl.keptSince("p/01-a.py")
	if got := strings.Join(pl.Writes, ","); got != "p/01-a.md,p/02-b.py" {
		t.Errorf("writes %s", got)
	}
	if got := strings.Join(pl.Kept, ","); got != "p/01-a.py,p/data.txt" {
		t.Errorf("kept %s", got)
	}
	if pl.Exercises[0].New || !pl.Exercises[1].New {
		t.Errorf("exercises %+v", pl.Exercises)
	}
}
