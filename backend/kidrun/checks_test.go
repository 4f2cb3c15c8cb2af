package kidrun

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCollectorKeepsCheckVerdicts(t *testing.T) {
	var checks []map[string]any
	for i := 0; i < MaxCheckFiles+5; i++ {
		checks = append(checks, map[string]any{"ok": i%2 == 0, "message": strings.Repeat("x", i*100)})
	}
	b, err := json.Marshal(map[string]any{"type": "result", "error": nil, "images": []any{}, "drawing": nil, "checks": checks})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector(nil)
	c.Frame(b)
	got := c.report().Checks
	if len(got) != MaxCheckFiles {
		t.Fatalf("kept %d verdicts, want the bound %d", len(got), MaxCheckFiles)
	}
	if !got[0].OK || got[1].OK || got[1].Message != strings.Repeat("x", 100) {
		t.Errorf("verdicts out of order: %+v", got[:2])
	}
	if n := len([]rune(got[MaxCheckFiles-1].Message)); n > maxTextRunes+1 {
		t.Errorf("a message of %d runes was kept", n)
	}
}
