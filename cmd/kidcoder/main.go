// Command kidcoder opens the classroom, or with a subcommand works headless.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"kidcoder/cmd/kidcoder/cli"
	"kidcoder/sandbox"
)

func main() { os.Exit(run()) }

func run() int {
	// Runs must be able to enter their control groups (a login session's
	// scope is not a place they can leave): see sandbox.EnterOwnScope.
	sandbox.EnterOwnScope()
	// Options for the window (--lessons DIR) go to the desktop app; anything
	// else is a headless command.
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "--lessons") {
		return cli.Main(os.Args[1:], os.Stdout, os.Stderr)
	}
	// The desktop app lives in its own binary: linking the GUI libraries here
	// would slow every headless command down (docs/contracts.md §1).
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "kidcoder:", err)
		return 1
	}
	gui := filepath.Join(filepath.Dir(exe), "kidcoder-gui")
	if err := syscall.Exec(gui, append([]string{gui}, os.Args[1:]...), os.Environ()); err != nil {
		fmt.Fprintf(os.Stderr, "kidcoder: cannot open the desktop app (%s): %v\n", gui, err)
		return 1
	}
	return 0
}
