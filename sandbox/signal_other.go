//go:build !unix

package sandbox

import (
	"os"
	"runtime"
	"syscall"
)

// Unix numbers: the verdict code is shared, but no run ever ends by a
// signal on a platform without a sandbox.
const (
	sigKILL = 9
	sigXCPU = 24
)

func waitSignal(*os.ProcessState) int { return 0 }

func signalName(n int) string { return "signal " + itoa(n) }

func kernelRelease() string { return runtime.GOOS }

func errnoName(n syscall.Errno) string { return "errno " + itoa(int(n)) }
