package kidrun

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOutputLimitKeepsWholeCharacters: a program printing Chinese and an
// emoji until the output bound stops it ends, in the result and in what the
// window heard, on a whole character: "你好 🐢" is 12 bytes a line, so a
// 64 KiB bound falls 4 bytes into one, inside 好.
func TestOutputLimitKeepsWholeCharacters(t *testing.T) {
	e := testEngine(t)
	p := e.Policy()
	p.OutputBytes = 64 << 10
	ev := newEvents()
	r, err := e.Start(context.Background(), Request{Code: []byte("while True:\n    print('你好 🐢')\n"), Name: "flood.py", Policy: &p}, ev)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Wait()
	if res.Status != "output_limit" || !res.Truncated {
		t.Fatalf("status %s truncated %v", res.Status, res.Truncated)
	}
	ev.mu.Lock()
	streamed := ev.out.String()
	ev.mu.Unlock()
	for what, out := range map[string]string{"result": res.Stdout, "streamed": streamed} {
		if strings.ContainsRune(out, utf8.RuneError) || !utf8.ValidString(out) {
			t.Errorf("%s ends %q", what, out[max(0, len(out)-20):])
		}
		if want := strings.Repeat("你好 🐢\n", 64<<10/12) + "你"; out != want {
			t.Errorf("%s: %d bytes ending %q, want %d ending %q", what, len(out), out[max(0, len(out)-20):], len(want), want[len(want)-20:])
		}
	}
}
