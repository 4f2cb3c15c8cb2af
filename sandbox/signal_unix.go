//go:build unix

package sandbox

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

const (
	sigKILL = int(syscall.SIGKILL)
	sigXCPU = int(syscall.SIGXCPU)
)

// waitSignal is the signal that ended the process itself, or 0.
func waitSignal(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

func signalName(n int) string {
	if s := unix.SignalName(syscall.Signal(n)); s != "" {
		return s
	}
	return "signal " + itoa(n)
}

// kernelRelease keys the cached self-test: a new kernel can change what
// namespaces and seccomp allow.
func kernelRelease() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(u.Release[:])
}

func errnoName(n syscall.Errno) string {
	if s := unix.ErrnoName(n); s != "" {
		return s
	}
	return "errno " + itoa(int(n))
}
