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
	"path/filepath"
	"strings"
	"syscall"

	"kidcoder/frontend/card"

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
	langFlag := fs.String("lang", "", "language of the tools and their answers, zh or en (default: the window's setting, else the system's)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "kidcoder mcp: takes no arguments besides its flags")
		return ExitUsage
	}
	if *langFlag != "" && *langFlag != text.Zh && *langFlag != text.En {
		fmt.Fprintf(stderr, "kidcoder mcp: --lang must be zh or en, not %q\n", *langFlag)
		return ExitUsage
	}
	set := readSettings(stderr)
	// Desktop hosts often start servers without LANG, so the locale is the
	// last word, after the flag and the window's own choice.
	lang := mcpLang(*langFlag, set.Lang, os.Getenv, systemLocaleFiles())
	set.Lang = lang
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

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	// Without Python or a working sandbox the server still serves: a host
	// that saw it exit would only say "server failed", while every tool that
	// runs code can say why nothing ran and what fixes it.
	policy := kidrun.PolicyFor(sandbox.DefaultPolicy(), kidrun.SettingsTimeout(set))
	eng, engErr := kidrun.New(kidrun.Options{Python: set.Python, Policy: policy})
	if engErr != nil {
		fmt.Fprintf(stderr, "kidcoder: %s\n", explain(engErr, lang))
	} else {
		defer eng.Close()
		// The self-test runs before the first request is read; a sandbox that
		// fails it serves anyway, and every run then says why nothing ran.
		if _, err := eng.Check(ctx); err != nil {
			fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, lang))
		} else {
			// A sandbox started ahead takes the first run_python (docs/runner-protocol.md, "Warm runs").
			eng.KeepWarm(kidrun.Warmth{})
		}
	}
	srv := mcpserver.New(mcpserver.Options{Engine: eng, EngineErr: engErr, Settings: set, Lessons: lib, AllowWrite: *allowWrite, Card: card.HTML})
	t := mcpserver.Stdio(stdin, stdout)
	if err := srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "kidcoder mcp: %v\n", err)
		return 1
	}
	return 0
}

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

// mcpLang is the server's language: the flag, else the window's setting,
// else the locale from the environment (LC_ALL, LC_MESSAGES, LANG,
// LANGUAGE), else the system's locale files (LANG= lines), else English.
func mcpLang(flag, setting string, getenv func(string) string, localeFiles []string) string {
	for _, l := range []string{flag, setting} {
		if l == text.Zh || l == text.En {
			return l
		}
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"} {
		if v := getenv(k); v != "" {
			if noLanguage(v) {
				break // set, and saying nothing: the files may
			}
			return text.Lang(v)
		}
	}
	for _, f := range localeFiles {
		if v := localeOf(f); v != "" {
			return text.Lang(v)
		}
	}
	return text.En
}

// systemLocaleFiles are where the user's and then the system's locale are
// kept: the user's locale.conf (systemd), /etc/locale.conf, /etc/default/locale (Debian).
func systemLocaleFiles() []string {
	var files []string
	if dir, err := os.UserConfigDir(); err == nil {
		files = append(files, filepath.Join(dir, "locale.conf"))
	}
	return append(files, "/etc/locale.conf", "/etc/default/locale")
}

// localeOf is the LC_ALL, LC_MESSAGES or LANG a locale file sets, or "".
func localeOf(path string) string {
	data, err := safefile.ReadFile(path, 64<<10)
	if err != nil {
		return ""
	}
	vals := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok {
			vals[strings.TrimPrefix(k, "export ")] = strings.Trim(v, `"'`)
		}
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := vals[k]; v != "" && !noLanguage(v) {
			return v
		}
	}
	return ""
}

// noLanguage is true for the locales that name no language (C, C.UTF-8, POSIX).
func noLanguage(locale string) bool {
	return locale == "C" || locale == "POSIX" || strings.HasPrefix(locale, "C.")
}
