//go:build unix

package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kidcoder run --trace, for real: OUT.jsonl holds §5's steps of the
// program, in order; the printed result is the program's as without a
// trace, --json not carrying the trace again; a link planted at OUT stays.
func TestRunTraceWritesJSONL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program in the sandbox")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	prog := filepath.Join(dir, "fact.py")
	must(t, os.WriteFile(prog, []byte(`def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

print(fact(3))
name = input()
`), 0o644))
	stdin := filepath.Join(dir, "answers.txt")
	must(t, os.WriteFile(stdin, []byte("小明\n"), 0o644))
	out := filepath.Join(dir, "trace.jsonl")
	code, stdout, stderr := runCLI(t, "run", "--timeout", roomyTimeout, "--trace", out, "--stdin", stdin, prog)
	if code == ExitUnavailable {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required but unavailable: %s%s", stderr, stdout)
		}
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	if code != 0 || stdout != "6\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	steps := readTrace(t, out)
	var got []string
	for _, st := range steps {
		got = append(got, st["event"].(string)+":"+jsonText(st["line"]))
	}
	want := "line:1 line:6 call:1 line:2 line:4 call:1 line:2 line:4 call:1 line:2 line:3 return:3 return:4 return:4 line:7"
	if strings.Join(got, " ") != want {
		t.Fatalf("steps %s\nwant  %s", strings.Join(got, " "), want)
	}
	for i, st := range steps {
		if st["i"].(float64) != float64(i) {
			t.Fatalf("step %d is numbered %v", i, st["i"])
		}
	}
	if ret := steps[11]; ret["value"] != "1" || ret["depth"].(float64) != 3 || jsonText(ret["vars"]) != `{"n":"1"}` {
		t.Errorf("the innermost return: %v", ret)
	}
	if last := steps[len(steps)-1]; last["out"].(float64) != 2 {
		t.Errorf("the last step has seen %v characters of output, want 2", last["out"])
	}

	// --json: the result, without the trace the file has.
	code, stdout, _ = runCLI(t, "run", "--json", "--timeout", roomyTimeout, "--trace", out, "--stdin", stdin, prog)
	var res map[string]any
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, stdout)
	}
	if _, ok := res["trace"]; ok || res["stdout"] != "6\n" {
		t.Errorf("--json with --trace: %s", stdout)
	}
	if len(readTrace(t, out)) != len(steps) {
		t.Errorf("the second run's trace differs")
	}

	// A link at OUT is not written through.
	target := filepath.Join(dir, "target.txt")
	must(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(dir, "link.jsonl")
	must(t, os.Symlink(target, link))
	code, _, stderr = runCLI(t, "run", "--timeout", roomyTimeout, "--trace", link, "--stdin", stdin, prog)
	if b, _ := os.ReadFile(target); code != 0 || string(b) != "keep" || !strings.Contains(stderr, "link.jsonl") {
		t.Errorf("a link: exit %d, target %q, stderr %q", code, b, stderr)
	}
}

// The bound: past 100,000 steps the file ends with the truncated record and
// the program still ran to its end.
func TestRunTraceTruncated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program in the sandbox")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	prog := filepath.Join(dir, "loop.py")
	must(t, os.WriteFile(prog, []byte("total = 0\nfor i in range(60000):\n    total += i\nprint(total)\n"), 0o644))
	out := filepath.Join(dir, "trace.jsonl")
	code, stdout, stderr := runCLI(t, "run", "--json", "--timeout", roomyTimeout, "--trace", out, prog)
	if code == ExitUnavailable {
		if os.Getenv("KIDCODER_REQUIRE_SANDBOX") != "" {
			t.Fatalf("sandbox required but unavailable: %s%s", stderr, stdout)
		}
		t.Skipf("sandbox unavailable: %s", stderr)
	}
	var res struct {
		Stdout  string   `json:"stdout"`
		Notices []string `json:"notices"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != 0 || res.Stdout != "1799970000\n" {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, stdout, stderr)
	}
	if len(res.Notices) != 1 || !strings.Contains(res.Notices[0], "100000") {
		t.Errorf("notices %q", res.Notices)
	}
	steps := readTrace(t, out)
	last := steps[len(steps)-1]
	if len(steps) != 100001 || last["event"] != "truncated" || last["steps"].(float64) != 100000 || len(last) != 2 {
		t.Fatalf("%d lines, the last %v", len(steps), last)
	}
}

func readTrace(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var st map[string]any
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			t.Fatalf("line %d: %v: %s", len(steps)+1, err, sc.Text())
		}
		steps = append(steps, st)
	}
	return steps
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
