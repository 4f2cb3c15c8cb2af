package packs

import (
	"path/filepath"
	"strings"
	"testing"

	"kidcoder/backend/lessons"
)

// TestImportedFolderIsOneTheTreeShows: a pack whose title is a name the
// lessons tree hides, or one Windows refuses, is imported into a folder
// named by the folder's one name rule, which the tree lists.
func TestImportedFolderIsOneTheTreeShows(t *testing.T) {
	// want "" is the pack's own id.
	for _, tc := range []struct{ title, id, want string }{
		{"__pycache__", "", ""},
		{"desktop.ini", "", ""},
		{"Thumbs.db", "", ""},
		{"notes~", "", ""},
		{"x.tmp", "", ""},
		{"~$lesson", "", ""},
		{"4913", "", ""},
		{"COM¹", "", ""},
		{"LPT³.txt", "", ""},
		{"CONIN$", "", ""},
		{"__pycache__", "desktop.ini", "pack"},
		{"COM²", "con.x", "pack"},
	} {
		src := scaffoldDir(t)
		editManifest(t, src, func(m *Manifest) {
			m.Title.En = tc.title
			if tc.id != "" {
				m.ID = tc.id
			}
		})
		dir := t.TempDir()
		pl, err := Import(buildTo(t, src), dir, "en")
		if err != nil {
			t.Fatalf("%+q: %v", tc.title, err)
		}
		want := tc.want
		if tc.id == "" {
			m, _ := ParseManifest([]byte(readFile(t, filepath.Join(src, ManifestName))), "pack.json")
			want = m.ID
		}
		if pl.Folder != want || lessons.CheckName(pl.Folder) != nil {
			t.Errorf("%+q (id %q): folder %+q, want %+q", tc.title, tc.id, pl.Folder, want)
		}
		lib, err := lessons.NewLibrary(dir)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := lib.List()
		lib.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.Children) != 1 || tree.Children[0].Path != pl.Folder || tree.Children[0].Kind != lessons.KindGroup {
			t.Errorf("%+q: the lessons tree shows %+v, want the group %q", tc.title, tree.Children, pl.Folder)
		}
	}
}

// TestDataFileTheTreeHidesIsRefused: a data file that would land in the
// child's folder under a name the lessons folder refuses (one it hides, one
// Windows keeps) makes the pack invalid, saying which.
func TestDataFileTheTreeHidesIsRefused(t *testing.T) {
	for _, name := range []string{"notes~", "desktop.ini", "Thumbs.db", "x.bak", "COM¹.txt", "CONOUT$.txt", "lpt0.csv"} {
		src := scaffoldDir(t)
		writeFile(t, filepath.Join(src, "exercises/square", name), "10\n")
		editManifest(t, src, func(m *Manifest) { m.Exercises[0].Data = []string{"exercises/square/" + name} })
		err := BuildFile(src, filepath.Join(t.TempDir(), "p.kidpack"))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("data file %q: build %v, want it refused by name", name, err)
		}
	}
}
