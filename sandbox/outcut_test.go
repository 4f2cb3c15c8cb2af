package sandbox

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// The output bound cuts where a character starts: an emoji or a Chinese
// character is never kept in part, however the stream was read.
func TestOutputBoundCutsWholeCharacters(t *testing.T) {
	type chunk struct {
		s    Stream
		data string
	}
	for _, tc := range []struct {
		name           string
		bound          int64
		chunks         []chunk
		stdout, stderr string
	}{
		{"inside 好", 4, []chunk{{Stdout, "你好 🐢\n"}}, "你", ""},
		{"inside 🐢", 9, []chunk{{Stdout, "你好 🐢\n"}}, "你好 ", ""},
		{"on a boundary", 7, []chunk{{Stdout, "你好 🐢\n"}}, "你好 ", ""},
		{"exactly all", 12, []chunk{{Stdout, "你好 🐢\n"}}, "你好 🐢\n", ""},
		// 好 began in the chunk read before: its first byte goes too.
		{"begun in the last read", 5, []chunk{{Stdout, "你\xe5"}, {Stdout, "\xa5\xbd!"}}, "你", ""},
		{"ends a read exactly", 4, []chunk{{Stdout, "你\xe5"}, {Stdout, "\xa5\xbd!"}}, "你", ""},
		// The bound, reached on stderr, ends stdout's half character too.
		{"the other stream", 6, []chunk{{Stdout, "a\xe4\xbd"}, {Stderr, "error!"}}, "a", "err"},
		// Bytes that are no character at all are not the bound's to judge.
		{"not UTF-8", 3, []chunk{{Stdout, "\xff\xfe\xfd\xfc"}}, "\xff\xfe\xfd", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cause error
			p := &Process{spec: Spec{Policy: Policy{OutputBytes: tc.bound}}, events: make(chan event, 16),
				cancel: func(err error) { cause = err }}
			for _, c := range tc.chunks {
				p.accept(c.s, []byte(c.data))
			}
			if string(p.outcome.Stdout) != tc.stdout || string(p.outcome.Stderr) != tc.stderr {
				t.Errorf("kept %q %q, want %q %q", p.outcome.Stdout, p.outcome.Stderr, tc.stdout, tc.stderr)
			}
			total := 0
			for _, c := range tc.chunks {
				total += len(c.data)
			}
			if cut := int64(total) > tc.bound; cut != p.truncated || cut != errors.Is(cause, errOutputLimit) {
				t.Errorf("truncated %v, cause %v", p.truncated, cause)
			}
			if int64(len(p.outcome.Stdout)+len(p.outcome.Stderr)) > tc.bound {
				t.Errorf("kept more than the bound")
			}
		})
	}
}

func TestWholeCharsOfEveryCut(t *testing.T) {
	s := []byte(strings.Repeat("你好 🐢\n", 3))
	for n := 0; n <= len(s); n++ {
		got := wholeChars(s[:charStart(s, n)])
		if !utf8.Valid(got) || len(got) > n || n-len(got) > 3 {
			t.Errorf("cut at %d keeps %q", n, got)
		}
	}
}
