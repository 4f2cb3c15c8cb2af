package cli

import (
	"testing"

	"kidcoder/backend/kidrun"
	"kidcoder/sandbox"
)

// A sandbox or Python problem is told in the user's language, with its fix
// on a line of its own when there is one.
func TestExplain(t *testing.T) {
	noBwrap := &sandbox.UnavailableError{Reason: "bubblewrap (bwrap) is not installed", Fix: "sudo apt install bubblewrap"}
	tests := []struct {
		err  error
		lang string
		want string
	}{
		{noBwrap, "en", "Code cannot run: sandbox unavailable: bubblewrap (bwrap) is not installed (fix: sudo apt install bubblewrap). Code is never run without the sandbox.\nTo fix it: sudo apt install bubblewrap"},
		{noBwrap, "zh", "代码不能运行：sandbox unavailable: bubblewrap (bwrap) is not installed (fix: sudo apt install bubblewrap)。没有安全沙盒，代码绝不会运行。\n解决办法：sudo apt install bubblewrap"},
		{kidrun.ErrNoPython, "en", "Code cannot run: no usable Python 3 found. Code is never run without the sandbox.\nTo fix it: sudo apt install python3"},
		{sandbox.ErrUnavailable, "en", "Code cannot run: sandbox unavailable. Code is never run without the sandbox."},
	}
	for _, tt := range tests {
		if got := explain(tt.err, tt.lang); got != tt.want {
			t.Errorf("explain(%v, %s) = %q, want %q", tt.err, tt.lang, got, tt.want)
		}
	}
}
