package packs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
