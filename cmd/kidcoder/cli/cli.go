// Package cli implements the headless kidcoder commands: run, selftest, version and pack.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"kidcoder/backend/text"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kidcoder/backend/buildinfo"
	"kidcoder/backend/kidrun"
	"kidcoder/sandbox"
)

// Exit codes other than the program's own.
const (
	ExitUsage       = 2
	ExitUnavailable = 3
	ExitTimeout     = 124
)

// Main runs one headless command and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "selftest":
		return cmdSelftest(args[1:], stdout, stderr)
	case "pack":
		return cmdPack(args[1:], stdout, stderr)
	case "mcp":
		return cmdMCP(args[1:], os.Stdin, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, buildinfo.String())
		return 0
	case "help", "--help", "-h":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "kidcoder: unknown command %q\n\n", args[0])
	usage(stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Kid Coder (小教室): learn Python by running real code safely.

Usage:
  kidcoder [--lessons DIR]      open the classroom (desktop app), optionally on a lessons folder
  kidcoder run [--json] [--timeout SECONDS] [--stdin FILE] [--events FILE.jsonl] [--trace OUT.jsonl] [--out DIR] [--lang zh|en] [--data FILE]... FILE.py
                                run FILE.py in the sandbox; exit code is the program's (124 on timeout);
                                --trace writes the run step by step to OUT.jsonl, one JSON object a step:
                                  {"i": 0, "event": "line", "line": 1, "func": "<module>", "depth": 0,
                                   "vars": {}, "out": 0, "draw": 0}   (at most 100,000 steps);
                                each --data FILE is readable by the program under its own name;
                                --events plays keys, clicks and answers into a live turtle program,
                                one JSON object per line, at_ms from the program's first line:
                                  {"at_ms": 300, "type": "key", "key": "Up"}     press then release
                                  {"at_ms": 400, "type": "keydown", "key": "space"}  (and "keyup")
                                  {"at_ms": 600, "type": "click", "x": 50, "y": 40, "button": 1}
                                  "mousedown", "mouseup", "mousemove" {x, y, button}; "answer" {text}
                                  {"at_ms": 900, "type": "close"}   closes the drawing
                                each event waits until the program can take it (listen(), a click
                                handler, a dialog, mainloop()) and the later ones move by that wait;
                                without "close", the drawing closes 1 s after the last event
  kidcoder selftest [--json]    prove the sandbox with must-block and must-allow probes
  kidcoder mcp [--lessons DIR] [--allow-write]
                                serve AI tutors over MCP on stdin/stdout: run_python in this sandbox
                                with the window's limits, lessons, checks and the classroom card;
                                write_lesson only with --allow-write (docs/mcp.md)
  kidcoder version              print the version, commit and build date
  kidcoder pack new DIR         start an exercise pack (teachers)
  kidcoder pack check [--json] [--timeout SECONDS] DIR|FILE
                                validate a pack and run its reference solutions through its checks
  kidcoder pack build DIR -o FILE.kidpack
  kidcoder pack import FILE [--lessons DIR]

Exit code 3 means the sandbox is missing or unusable: code is never run without it.
`)
}

// timeoutPolicy is the limits of a run given --timeout seconds (0: the
// default), at most ten minutes: `run` and `pack check` alike, so a slow
// machine can give a pack's checks the time their real work takes there.
func timeoutPolicy(seconds float64) sandbox.Policy {
	return kidrun.PolicyFor(sandbox.DefaultPolicy(), time.Duration(min(seconds, 600)*float64(time.Second)))
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON result object instead of streaming")
	timeout := fs.Float64("timeout", 0, "wall-clock limit in seconds (default 10)")
	stdinFile := fs.String("stdin", "", "file whose lines answer input()")
	eventsFile := fs.String("events", "", "JSONL timeline of keys, clicks and answers to play into a live turtle program")
	outDir := fs.String("out", "", "folder to write turtle.svg and figure-N.png into")
	traceFile := fs.String("trace", "", "write the step-by-step recording of FILE.py there (JSONL, docs/contracts.md §5)")
	lang := fs.String("lang", "", "language of hints: zh or en (default from the locale)")
	python := fs.String("python", "", "Python interpreter to use (default: found automatically)")
	var data multiFlag
	fs.Var(&data, "data", "a data file the program may read by its name (repeatable)")
	if err := fs.Parse(reorder(args, map[string]bool{"json": true})); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "kidcoder run: give exactly one FILE.py")
		return ExitUsage
	}
	file := fs.Arg(0)
	code, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "kidcoder run: %v\n", err)
		return ExitUsage
	}
	var stdin []byte
	if *stdinFile != "" {
		if stdin, err = os.ReadFile(*stdinFile); err != nil {
			fmt.Fprintf(stderr, "kidcoder run: %v\n", err)
			return ExitUsage
		}
	}
	var timeline kidrun.Timeline
	if *eventsFile != "" {
		if timeline, err = kidrun.ReadTimeline(*eventsFile); err != nil {
			fmt.Fprintf(stderr, "kidcoder run: %s: %v\n", *eventsFile, err)
			return ExitUsage
		}
	}
	l := *lang
	if l == "" {
		l = text.System()
	}
	policy := timeoutPolicy(*timeout)

	fail := func(err error) int {
		code := 1
		if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython) {
			code = ExitUnavailable
		}
		if *asJSON {
			writeJSON(stdout, &kidrun.Result{Status: string(sandbox.StatusUnavailable), ExitCode: code,
				Images: []kidrun.Image{}, Error: &kidrun.ErrorInfo{Type: "SandboxUnavailable", Message: err.Error(), Hint: explain(err, l)}})
		} else {
			fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, l))
		}
		return code
	}
	eng, err := kidrun.New(kidrun.Options{Python: *python, Policy: policy})
	if err != nil {
		return fail(err)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()

	var obs kidrun.Observer
	if !*asJSON {
		obs = streamObserver{stdout: stdout, stderr: stderr}
	}
	req := kidrun.Request{Code: code, Name: filepath.Base(file), Lang: l, Stdin: stdin, DataFiles: data, Timeline: timeline,
		Trace: *traceFile != ""}
	if *asJSON {
		req.ReplaySteps = kidrun.MaxReplaySteps // a reader of the JSON saw nothing drawn
	}
	if req.Stdin == nil {
		req.Stdin = []byte{}
	}
	run, err := eng.Start(ctx, req, obs)
	if err != nil {
		return fail(err)
	}
	go func() {
		<-ctx.Done()
		run.Stop()
	}()
	res := run.Wait()

	if *outDir != "" {
		if err := writeImages(*outDir, res.Images); err != nil {
			fmt.Fprintf(stderr, "kidcoder run: %v\n", err)
		}
	}
	if *traceFile != "" && res.Trace != nil {
		if err := writeTrace(*traceFile, res.Trace); err != nil {
			fmt.Fprintf(stderr, "kidcoder run: %v\n", err)
		}
		res.Trace = nil // it went to the file: the JSON result does not carry it again
	}
	if *asJSON {
		writeJSON(stdout, res)
	} else {
		explainResult(stderr, res)
	}
	if res.Status == string(sandbox.StatusTimeout) {
		return ExitTimeout
	}
	return res.ExitCode
}

// reorder lets boolean flags follow the file name too (kidcoder run a.py --json).
func reorder(args []string, boolFlags map[string]bool) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && !boolFlags[name] && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

// multiFlag collects a repeatable flag. Data files are named one by one on
// purpose: the files that happen to sit beside a program (a Downloads
// folder, say) are the family's, not the program's.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type streamObserver struct{ stdout, stderr io.Writer }

func (o streamObserver) Output(stream, text string) {
	if stream == "stderr" {
		io.WriteString(o.stderr, text)
	} else {
		io.WriteString(o.stdout, text)
	}
}
func (o streamObserver) Waiting(string) {}
func (o streamObserver) InputDone()     {}

func explainResult(w io.Writer, r *kidrun.Result) {
	if r.Error != nil && r.Error.Hint != "" {
		line := ""
		if r.Error.Line != nil {
			line = " (line " + strconv.Itoa(*r.Error.Line) + ")"
		}
		fmt.Fprintf(w, "\n💡 %s%s\n", r.Error.Hint, line)
	}
	if r.Message != "" {
		fmt.Fprintf(w, "\n%s\n", r.Message)
	}
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func cmdSelftest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "list each probe as JSON")
	python := fs.String("python", "", "Python interpreter to use")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	lang := text.System()
	eng, err := kidrun.New(kidrun.Options{Python: *python})
	if err != nil {
		if *asJSON {
			writeJSON(stdout, map[string]any{"ok": false, "error": err.Error(), "fix": fixOf(err), "probes": []any{}})
		} else {
			fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, lang))
		}
		return ExitUnavailable
	}
	rep, err := eng.SelfTest(context.Background())
	if *asJSON {
		out := map[string]any{"ok": err == nil, "python": eng.Python(), "report": rep}
		if err != nil {
			out["error"] = err.Error()
			out["fix"] = fixOf(err)
		}
		writeJSON(stdout, out)
	} else {
		fmt.Fprintf(stdout, "python:  %s\nsandbox: %s %s (%s)\n", eng.Python(), rep.Info.Kind, rep.Info.Version, rep.Info.Path)
		c := rep.Info.Containment
		bounds := strings.Join(c.Bounds, ", ")
		if bounds == "" {
			bounds = "none"
		}
		fmt.Fprintf(stdout, "limits:  %s, whole run: %s (%s)\n", c.Mechanism, bounds, c.Detail)
		if rep.Info.Kind == "bubblewrap" {
			fmt.Fprintf(stdout, "walls:   bubblewrap and %s\n", landlockWords(rep.Info.Landlock))
		}
		for _, p := range rep.Probes {
			mark := "ok  "
			if !p.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(stdout, "  %s %-5s %-28s %s\n", mark, p.Kind, p.Name, p.Detail)
		}
		if err != nil {
			fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, lang))
		} else {
			fmt.Fprintln(stdout, "sandbox OK")
		}
	}
	if err != nil {
		return ExitUnavailable
	}
	return 0
}

func fixOf(err error) string {
	var ue *sandbox.UnavailableError
	if errors.As(err, &ue) {
		return ue.Fix
	}
	if errors.Is(err, kidrun.ErrNoPython) {
		return "sudo apt install python3"
	}
	return ""
}

// explain is the message for a sandbox or Python problem, with its fix.
func explain(err error, lang string) string {
	fix := fixOf(err)
	msg := text.Get("sandbox.unavailable", lang, map[string]string{"reason": err.Error()})
	if fix != "" {
		msg += "\n" + text.Get("sandbox.fix", lang, map[string]string{"fix": fix})
	}
	return msg
}

// landlockWords names the second wall a selftest found, and what of it
// this kernel lacks.
func landlockWords(abi int) string {
	switch {
	case abi == 0:
		return "no Landlock (this kernel has none: the namespaces and mounts are the one wall)"
	case abi < 4:
		return fmt.Sprintf("Landlock ABI %d (files only: TCP, abstract sockets and signals have the one wall)", abi)
	case abi < sandbox.LandlockFullABI:
		return fmt.Sprintf("Landlock ABI %d (files and TCP: abstract sockets and signals have the one wall)", abi)
	}
	return fmt.Sprintf("Landlock ABI %d", abi)
}
