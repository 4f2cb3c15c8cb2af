package cli

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"kidcoder/backend/text"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/lessons"
	"kidcoder/backend/packs"
	"kidcoder/sandbox"
)

const packUsage = `Usage:
  kidcoder pack new DIR                        start a pack with one example exercise
  kidcoder pack check [--json] [--lang zh|en] DIR|FILE.kidpack
                                               validate, then run each reference solution
                                               (must pass) and starter (must fail) through the checks
  kidcoder pack build DIR [-o FILE.kidpack] [--key FILE]
                                               build a pack file (same folder, same bytes),
                                               signed with a key from pack keygen
  kidcoder pack keygen FILE                    make a signing key: only packs signed with it
                                               update a pack signed with it
  kidcoder pack import [--lessons DIR] [--lang zh|en] [--dry-run] FILE.kidpack
                                               add the exercises to the lessons folder
  kidcoder pack list [--lessons DIR] [--json]  the packs imported there, with who signed them

The format is described in docs/packs.md.
`

// cmdPack runs `kidcoder pack ...`. Exit codes: 0 done, 1 the pack is
// invalid or a check failed, 2 usage, 3 no sandbox to run checks in.
func cmdPack(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, packUsage)
		return ExitUsage
	}
	switch args[0] {
	case "new":
		return packNew(args[1:], stdout, stderr)
	case "check":
		return packCheck(args[1:], stdout, stderr)
	case "build":
		return packBuild(args[1:], stdout, stderr)
	case "import":
		return packImport(args[1:], stdout, stderr)
	case "keygen":
		return packKeygen(args[1:], stdout, stderr)
	case "list":
		return packList(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, packUsage)
		return 0
	}
	fmt.Fprintf(stderr, "kidcoder pack: unknown command %q\n\n%s", args[0], packUsage)
	return ExitUsage
}

// packErr prints every problem of a joined error on its own line.
func packErr(w io.Writer, cmd string, err error) {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) && len(joined.Unwrap()) > 1 {
		fmt.Fprintf(w, "kidcoder pack %s: %d problems:\n", cmd, len(joined.Unwrap()))
		for _, e := range joined.Unwrap() {
			fmt.Fprintf(w, "  %v\n", e)
		}
		return
	}
	fmt.Fprintf(w, "kidcoder pack %s: %v\n", cmd, err)
}

func packNew(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "kidcoder pack new: give exactly one folder")
		return ExitUsage
	}
	if err := packs.New(args[0]); err != nil {
		packErr(stderr, "new", err)
		return 1
	}
	fmt.Fprintf(stdout, "Created an example pack in %s.\nEdit pack.json and the files under exercises/, then:\n  kidcoder pack check %s\n  kidcoder pack build %s -o my-pack.kidpack\n", args[0], args[0], args[0])
	return 0
}

func packBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pack build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the .kidpack file to write (default ID-VERSION.kidpack)")
	keyFile := fs.String("key", "", "sign the pack with this key (kidcoder pack keygen makes one)")
	if err := fs.Parse(reorder(args, nil)); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "kidcoder pack build: give exactly one pack folder")
		return ExitUsage
	}
	dir := fs.Arg(0)
	var key ed25519.PrivateKey
	if *keyFile != "" {
		k, err := packs.ReadKey(*keyFile)
		if err != nil {
			packErr(stderr, "build", err)
			return 1
		}
		key = k
	}
	b, err := packs.BuildSigned(dir, key)
	if err != nil {
		packErr(stderr, "build", err)
		return 1
	}
	target := *out
	if target == "" {
		p, err := packs.ReadPack(dir, b)
		if err != nil {
			packErr(stderr, "build", err)
			return 1
		}
		target = p.Manifest.ID + "-" + p.Manifest.Version + ".kidpack"
	}
	if err := os.WriteFile(target, b, 0o644); err != nil {
		packErr(stderr, "build", err)
		return 1
	}
	sum := sha256.Sum256(b)
	signer := string(packs.Unsigned)
	if key != nil {
		signer = "signed, " + packs.KeyOrigin(key.Public().(ed25519.PublicKey)).Signer()
	}
	fmt.Fprintf(stdout, "%s: %d bytes, sha256 %s, %s\n", target, len(b), hex.EncodeToString(sum[:]), signer)
	return 0
}

func packKeygen(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "kidcoder pack keygen: give the file to write the key to")
		return ExitUsage
	}
	o, err := packs.GenerateKey(args[0])
	if err != nil {
		packErr(stderr, "keygen", err)
		return 1
	}
	fmt.Fprintf(stdout, "Wrote a signing key to %s (%s).\nBuild with kidcoder pack build DIR --key %s: once a pack signed with it is imported,\nonly packs signed with this key update it. Keep the file safe and private: it can't be made again.\n", args[0], o.Signer(), args[0])
	return 0
}

func packList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pack list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("lessons", "", "lessons folder (default: $"+lessons.EnvDir+" or Documents/"+lessons.FolderName+")")
	asJSON := fs.Bool("json", false, "print the packs as JSON")
	lang := fs.String("lang", "", "language of the titles: zh or en")
	if err := fs.Parse(reorder(args, map[string]bool{"json": true})); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "kidcoder pack list: takes no arguments")
		return ExitUsage
	}
	l := *lang
	if l == "" {
		l = text.System()
	}
	root, err := lessons.ResolveDir(*dir)
	if err != nil {
		packErr(stderr, "list", err)
		return 1
	}
	list, err := packs.Summaries(root)
	if err != nil {
		packErr(stderr, "list", err)
		return 1
	}
	if *asJSON {
		writeJSON(stdout, list)
		return 0
	}
	for _, s := range list {
		fmt.Fprintf(stdout, "%s\t%s %s\t%s\t%d/%d solved\t%s\n", s.Folder, s.ID, s.Version, s.Signer, s.Solved, s.Exercises, s.Title.In(l))
	}
	return 0
}

func packCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pack check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	lang := fs.String("lang", "", "language of the check messages: zh or en")
	python := fs.String("python", "", "Python interpreter to use")
	timeout := fs.Float64("timeout", 0, "wall-clock limit in seconds of each run (default 10); an exercise's checks get 60 s together, stretched as much")
	if err := fs.Parse(reorder(args, map[string]bool{"json": true})); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "kidcoder pack check: give exactly one pack folder or .kidpack file")
		return ExitUsage
	}
	l := *lang
	if l == "" {
		l = text.System()
	}
	p, err := packs.Load(fs.Arg(0))
	if err != nil {
		packErr(stderr, "check", err)
		return 1
	}
	fmt.Fprintf(stderr, "%s %s (%s): format valid, %d exercise(s); running the checks in the sandbox...\n", p.Manifest.ID, p.Manifest.Version, p.Origin().Signer(), len(p.Manifest.Exercises))
	eng, err := kidrun.New(kidrun.Options{Python: *python, Policy: timeoutPolicy(*timeout)})
	if err != nil {
		fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, l))
		return ExitUnavailable
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	c := packs.Checker{Runner: packs.EngineRunner{Engine: eng}, Lang: l, Budget: checkBudget(*timeout)}
	vs, err := c.Verify(ctx, p)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "kidcoder pack check: stopped")
		return exitStopped
	}
	if err != nil {
		if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, kidrun.ErrNoPython) {
			fmt.Fprintf(stderr, "kidcoder: %s\n", explain(err, l))
			return ExitUnavailable
		}
		packErr(stderr, "check", err)
		return 1
	}
	ok := true
	for _, v := range vs {
		ok = ok && v.OK
	}
	if *asJSON {
		writeJSON(stdout, map[string]any{"ok": ok, "id": p.Manifest.ID, "version": p.Manifest.Version, "exercises": vs})
	} else {
		for _, v := range vs {
			printVerification(stdout, p, v)
		}
	}
	if !ok {
		return 1
	}
	return 0
}

// exitStopped is pack check's exit code when Ctrl+C (or SIGTERM) stopped it.
const exitStopped = 130

// checkBudget is each exercise's budget under --timeout seconds: the
// child's (packs.CheckBudget), stretched as much as --timeout stretches a
// run's wall clock beyond the child's 10 s, so a slow machine can give the
// checks the time their work takes there.
func checkBudget(seconds float64) time.Duration {
	def := sandbox.DefaultPolicy().WallTime
	run := timeoutPolicy(seconds).WallTime
	if run <= def {
		return packs.CheckBudget
	}
	return time.Duration(float64(packs.CheckBudget) * float64(run) / float64(def))
}

func printVerification(w io.Writer, p *packs.Pack, v packs.Verification) {
	mark := "ok  "
	if !v.OK {
		mark = "FAIL"
	}
	ex, _ := p.Exercise(v.Exercise)
	n := len(ex.Checks)
	switch {
	case v.Solution == nil:
		fmt.Fprintf(w, "%s %s: no reference solution (add one to prove the checks can pass)", mark, v.Exercise)
	case v.Solution.Passed:
		fmt.Fprintf(w, "%s %s: solution passes all %d checks", mark, v.Exercise, n)
	default:
		fmt.Fprintf(w, "%s %s: solution fails %d of %d checks", mark, v.Exercise, len(v.Solution.Failed()), n)
	}
	fmt.Fprintf(w, "; starter fails %d of %d\n", len(v.Starter.Failed()), n)
	if v.Solution != nil && !v.Solution.Passed {
		for _, c := range v.Solution.Failed() {
			fmt.Fprintf(w, "     solution: checks[%d] (%s): %s", c.Index, c.Type, c.Message)
			if c.Detail != "" {
				fmt.Fprintf(w, " — %s", c.Detail)
			}
			fmt.Fprintln(w)
		}
	}
	if v.Starter.Passed {
		fmt.Fprintf(w, "     starter: passes every check, so there is nothing left to do\n")
	}
}

func packImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pack import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("lessons", "", "lessons folder (default: $"+lessons.EnvDir+" or Documents/"+lessons.FolderName+")")
	lang := fs.String("lang", "", "language of the instructions and the folder name: zh or en")
	dry := fs.Bool("dry-run", false, "only show what would be added")
	if err := fs.Parse(reorder(args, map[string]bool{"dry-run": true})); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "kidcoder pack import: give exactly one .kidpack file")
		return ExitUsage
	}
	l := *lang
	if l == "" {
		l = text.System()
	}
	root, err := lessons.ResolveDir(*dir)
	if err != nil {
		packErr(stderr, "import", err)
		return 1
	}
	file := fs.Arg(0)
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		fmt.Fprintln(stderr, "kidcoder pack import: give a built .kidpack file (kidcoder pack build makes one)")
		return ExitUsage
	}
	var plan *packs.Plan
	if *dry {
		plan, err = packs.Preview(file, root, l)
	} else {
		plan, err = packs.Import(file, root, l)
	}
	if err != nil {
		packErr(stderr, "import", err)
		return 1
	}
	verb := "Imported"
	if *dry {
		verb = "Would import"
	}
	what := "new"
	if plan.Previous != "" {
		what = "update from " + plan.Previous
	}
	fmt.Fprintf(stdout, "%s %q %s (%s, %s) into %s: %d exercise(s)\n", verb, plan.Title.In(l), plan.Version, what, plan.Signer,
		filepath.Join(root, plan.Folder), len(plan.Exercises))
	for _, f := range plan.Writes {
		fmt.Fprintf(stdout, "  write %s\n", f)
	}
	for _, f := range plan.Kept {
		fmt.Fprintf(stdout, "  keep  %s (the child's own)\n", f)
	}
	return 0
}
