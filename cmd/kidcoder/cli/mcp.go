package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"kidcoder/frontend/card"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/mcpserver"
	"kidcoder/backend/safefile"
	"kidcoder/backend/settings"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// cmdMCP serves the MCP server over stdin and stdout (docs/mcp.md). Only
// protocol messages go to stdout; notes for people go to stderr.
func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("lessons", "", "lessons folder (default: the window's)")
	allowWrite := fs.Bool("allow-write", false, "offer write_lesson, which writes inside the lessons folder")
	python := fs.String("python", "", "Python interpreter to use (default: the window's setting, else found automatically)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "kidcoder mcp: takes no arguments besides its flags")
		return ExitUsage
	}
	set := readSettings(stderr)
	lang := set.Lang
	if lang == "" {
		lang = text.System()
	}
	if *python != "" {
		set.Python = *python
	}

	var lib *lessons.Library
	root, err := mcpLessonsRoot(*dir, set)
	if err == nil {
		lib, err = lessons.NewLibrary(root)
	}
	if err != nil {
		if *dir != "" {
			fmt.Fprintf(stderr, "kidcoder mcp: lessons folder: %s\n", lessons.ProblemOf(err).In(lang))
			return ExitUsage
		}
		fmt.Fprintf(stderr, "kidcoder mcp: no lessons folder, so no lesson tools: %s\n", lessons.ProblemOf(err).In(lang))
	}

	policy := kidrun.PolicyFor(sandbox.DefaultPolicy(), kidrun.SettingsTimeout(set))
	eng, err := kidrun.New(kidrun.Options{Python: set.Python, Policy: policy})
	if err != nil {
		fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, lang))
		return ExitUnavailable
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	// The self-test runs before the first request is read; a sandbox that
	// fails it serves anyway, and every run then says why nothing ran.
	if _, err := eng.Check(ctx); err != nil {
		fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, lang))
	} else {
		// A sandbox started ahead takes the first run_python (docs/runner-protocol.md, "Warm runs").
		eng.KeepWarm(kidrun.Warmth{})
	}
	defer eng.Close()
	srv := mcpserver.New(mcpserver.Options{Engine: eng, Settings: set, Lessons: lib, AllowWrite: *allowWrite, Card: card.HTML})
	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if err := srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "kidcoder mcp: %v\n", err)
		return 1
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// readSettings reads the window's settings without changing anything: a
// missing or broken file gives the defaults (the window, not this server,
// moves a broken file aside).
func readSettings(stderr io.Writer) settings.Settings {
	path, err := settings.DefaultPath()
	if err != nil {
		return settings.Defaults()
	}
	data, err := safefile.ReadFile(path, 1<<20)
	var s settings.Settings
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "kidcoder mcp: settings %s: %v; using the defaults\n", path, err)
		}
		return settings.Defaults().Clamp()
	}
	return s.Clamp()
}

// mcpLessonsRoot picks the folder as the window does: the flag, then
// $KIDCODER_LESSONS, then the family's choice, then Documents/Kid Coder.
func mcpLessonsRoot(flag string, s settings.Settings) (string, error) {
	if flag == "" && s.LessonsDir != "" && os.Getenv(lessons.EnvDir) == "" {
		flag = s.LessonsDir
	}
	return lessons.ResolveDir(flag)
}
