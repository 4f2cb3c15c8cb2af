package packs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kidcoder/backend/lessons"
)

// Summaries lists the packs in the order the lessons tree shows their
// folders: natural order, Chinese numerals included.
func TestSummariesInNaturalOrder(t *testing.T) {
	lessons := t.TempDir()
	for i, folder := range []string{"第十周", "第二周", "第3周", "第十一周", "第一周"} {
		meta := filepath.Join(lessons, folder, MetaDir)
		if err := os.MkdirAll(meta, 0o755); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(installed{Manifest: Manifest{ID: "p" + string(rune('a'+i))}, Lang: "zh", Written: map[string]string{}})
		if err := os.WriteFile(filepath.Join(meta, installedName), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sums, err := Summaries(lessons)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sums {
		got = append(got, s.Folder)
	}
	if strings.Join(got, " ") != "第一周 第二周 第3周 第十周 第十一周" {
		t.Errorf("packs in order %v", got)
	}
}

// A pack's folder is named in the language it was imported in; the lessons
// tree gives it the pack's title in both, so a window switched to the other
// language shows it in its own, until a parent renames the folder.
func TestPackFolderTitledInBothLanguages(t *testing.T) {
	root := t.TempDir()
	file := buildTo(t, scaffoldDir(t))
	pl, err := Import(file, root, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if pl.Folder != "我的第一个练习包" {
		t.Fatalf("folder %q", pl.Folder)
	}
	// The same pack's folder name taken: an import numbers its folder.
	other := filepath.Join(root, "p2")
	if err := os.MkdirAll(filepath.Join(other, MetaDir), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(root, pl.Folder, MetaDir, installedName))
	os.WriteFile(filepath.Join(other, MetaDir, installedName), b, 0o644)
	os.Rename(other, filepath.Join(root, "我的第一个练习包 (2)"))
	// Renamed by a parent: their name stays.
	os.MkdirAll(filepath.Join(root, "数学", MetaDir), 0o755)
	os.WriteFile(filepath.Join(root, "数学", MetaDir, installedName), b, 0o644)

	l, err := lessons.NewLibrary(root)
	if err != nil {
		t.Fatal(err)
	}
	l.SetTitler(Titles)
	tree, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, g := range tree.Children {
		if g.Kind != lessons.KindGroup {
			continue
		}
		if g.Title == nil {
			got[g.Name] = "-"
			continue
		}
		got[g.Name] = g.Title.Zh + " / " + g.Title.En
		if g.Name == pl.Folder && (len(g.Children) == 0 || g.Children[0].Title == nil || g.Children[0].Title.En != "Draw a square") {
			t.Errorf("exercise titles lost: %+v", g.Children)
		}
	}
	want := map[string]string{
		"我的第一个练习包":     "我的第一个练习包 / My first exercise pack",
		"我的第一个练习包 (2)": "我的第一个练习包 (2) / My first exercise pack (2)",
		"数学":           "-",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: title %q, want %q", k, got[k], v)
		}
	}
}
