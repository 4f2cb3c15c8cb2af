package sandbox

import (
	"os"
	"strings"
)

// sandboxTool is the kind and path of the sandbox tool this process would
// use, found without starting it.
func sandboxTool() (kind, path string, ok bool) {
	p, err := findBwrap()
	return "bubblewrap", p, err == nil
}

// hostRunAs is the host uid bwrap runs under: the app's own (-1), or
// nobody when the app runs as root.
func hostRunAs() int {
	if os.Geteuid() == 0 {
		return nobody
	}
	return -1
}

// hostIdentity names this machine and its current boot, or "" where they
// cannot be learned: a cache sealed under another is not believed, so a
// copied home folder brings no facts along, and each boot probes once.
func hostIdentity() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil || len(strings.TrimSpace(string(boot))) == 0 {
		return ""
	}
	machine, _ := os.ReadFile("/etc/machine-id")
	return strings.TrimSpace(string(machine)) + "/" + strings.TrimSpace(string(boot))
}
