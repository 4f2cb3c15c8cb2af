package sandbox

import "syscall"

// sandboxTool is unused here: every start runs Detect, which costs no
// process.
func sandboxTool() (kind, path string, ok bool) { return "", "", false }

// hostRunAs is the app's own uid: Seatbelt has no other.
func hostRunAs() int { return -1 }

// hostIdentity names this machine and its current boot, or "" where they
// cannot be learned: a cache sealed under another is not believed, so a
// copied home folder brings no facts along, and each boot probes once.
func hostIdentity() string {
	machine, err1 := syscall.Sysctl("kern.uuid")
	boot, err2 := syscall.Sysctl("kern.bootsessionuuid")
	if err1 != nil || err2 != nil || machine == "" || boot == "" {
		return ""
	}
	return machine + "/" + boot
}
