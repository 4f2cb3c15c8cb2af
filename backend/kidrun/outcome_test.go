package kidrun

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// TestEveryEndHasItsOwnMessage: each limit, the Stop button and each
// status that is a bound ends with its own message of the catalogue, in
// both languages, every {name} in it filled with the run's own bound.
func TestEveryEndHasItsOwnMessage(t *testing.T) {
	p := sandbox.DefaultPolicy()
	p.WallTime, p.CPUTime, p.IdleTime = 7*time.Second, 9*time.Second, 300*time.Second
	cases := []struct {
		name string
		out  sandbox.Outcome
		key  string
		zh   string // a piece of the Chinese text with the value filled in
		en   string
	}{
		{"stop", sandbox.Outcome{Status: sandbox.StatusKilled, Stopped: true}, "limit.stopped", "停止", "You pressed Stop"},
		{"wall clock", sandbox.Outcome{Status: sandbox.StatusTimeout}, "limit.timeout", "7 秒", "longer than 7 s"},
		{"cpu", sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "cpu"}, "limit.cpu", "9 秒", "more than 9 s of computer time"},
		{"idle", sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "idle"}, "limit.idle", "300 秒", "more than 300 s"},
		{"quiet game", sandbox.Outcome{Status: sandbox.StatusTimeout, Limit: "quiet"}, "limit.quiet", "5 分钟", "for 5 minutes"},
		{"files", sandbox.Outcome{Status: sandbox.StatusKilled, Limit: "files"}, "limit.files", "10000", "at most 10000"},
		{"memory", sandbox.Outcome{Status: sandbox.StatusMemory}, "limit.memory", "512 MB", "more than 512 MB"},
		{"output", sandbox.Outcome{Status: sandbox.StatusOutput}, "limit.output", "1 MB", "more than 1 MB"},
		{"killed", sandbox.Outcome{Status: sandbox.StatusKilled}, "limit.killed", "强制", "forced to end"},
		{"set-up step", sandbox.Outcome{Status: sandbox.StatusUnavailable, Setup: &sandbox.SetupError{Step: "read_info", Err: fmt.Errorf("decoding: %w", syscall.EINTR)}},
			"setup.failed", "“read_info”这一步：EINTR", "step “read_info”: EINTR"},
		{"set-up step without an errno", sandbox.Outcome{Status: sandbox.StatusUnavailable, Setup: &sandbox.SetupError{Step: "bwrap_ended", Err: errors.New("bwrap ended before the init was tied to it")}},
			"setup.failed", "“bwrap_ended”这一步：bwrap ended", "step “bwrap_ended”: bwrap ended before"},
	}
	placeholder := regexp.MustCompile(`\{[a-z]+\}`)
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for lang, want := range map[string]string{text.Zh: c.zh, text.En: c.en} {
				r := buildResult(c.out, report{}, p, lang)
				if r.Outcome == nil || r.Outcome.Key != c.key {
					t.Fatalf("outcome %+v, want key %s", r.Outcome, c.key)
				}
				if r.Message == "" || r.Message == c.key || !strings.Contains(r.Message, want) || placeholder.MatchString(r.Message) {
					t.Errorf("%s message %q, want one with %q and nothing left unfilled", lang, r.Message, want)
				}
				if r.Message != r.Outcome.Text(lang) {
					t.Errorf("%s: message %q is not the outcome's text %q", lang, r.Message, r.Outcome.Text(lang))
				}
			}
			seen[c.key] = true
		})
	}
	// Each key of the contract's enum has a case here, so none goes untested.
	f, _ := reflect.TypeFor[Outcome]().FieldByName("Key")
	for _, k := range strings.Split(f.Tag.Get("enum"), ",") {
		if !seen[k] {
			t.Errorf("outcome %s has no test", k)
		}
	}
}

// TestAnEndOfItsOwnHasNoOutcome: ok, an error and an exit code say it all.
func TestAnEndOfItsOwnHasNoOutcome(t *testing.T) {
	for _, out := range []sandbox.Outcome{{Status: sandbox.StatusOK}, {Status: sandbox.StatusError, ExitCode: 1}} {
		if r := buildResult(out, report{}, sandbox.DefaultPolicy(), "en"); r.Outcome != nil || r.Message != "" {
			t.Errorf("%s: outcome %+v, message %q", out.Status, r.Outcome, r.Message)
		}
	}
}

// TestProgramSeesWhatSiteGives: Python starts without site (-S, which
// spares running .pth code at every start), and the runner gives the
// program what site would: the site-packages folders and exit(), quit(),
// help() and copyright.
func TestProgramSeesWhatSiteGives(t *testing.T) {
	e := testEngine(t)
	code := `import site, sys
print(all(d in sys.path for d in site.getsitepackages() if __import__("os").path.isdir(d)))
print(callable(exit), callable(quit), callable(help), "copyright" in dir(__builtins__))
exit(3)
`
	r, err := e.Start(context.Background(), Request{Code: []byte(code), Name: "site.py", Stdin: []byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Wait(); res.Stdout != "True\nTrue True True True\n" || res.ExitCode != 3 {
		t.Fatalf("%s %d %q %q", res.Status, res.ExitCode, res.Stdout, res.Stderr)
	}
}
