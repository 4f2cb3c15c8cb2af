//go:build !linux && !darwin

package sandbox

import (
	"context"
	"os/exec"
	"runtime"
)

func unsupported() *UnavailableError {
	if runtime.GOOS == "windows" {
		return &UnavailableError{Code: "unsupported_os", Reason: "Windows does not have the sandbox yet; code is never run unsandboxed"}
	}
	return &UnavailableError{Code: "unsupported_os", Reason: runtime.GOOS + " does not have the sandbox yet; code is never run unsandboxed"}
}

// Detect always reports the sandbox unavailable on this platform.
func Detect() (Info, error) { return Info{RunAsUID: -1}, unsupported() }

// FindPython is unavailable here: a Python the sandbox cannot run is no use.
func FindPython(preferred string) (string, error) { return "", unsupported() }

const rssWatchdog = false

type sysState struct{}

func platformCommand(context.Context, Spec) (*exec.Cmd, *sysState, error) {
	return nil, nil, unsupported()
}

func (*sysState) started(*exec.Cmd)      {}
func (*sysState) kill(c *exec.Cmd) error { return c.Process.Kill() }
func (*sysState) finish()                {}
func (*sysState) sample(uint64) usage    { return usage{scratchFiles: -1} }
func (*sysState) failure() *SetupError   { return nil }
func (*sysState) setUp()                 {}
func (*sysState) resident(int) int64     { return 0 }
func (*sysState) cleanup()               {}

// ContainmentInfo says no control group holds runs here.
func ContainmentInfo() Containment {
	return containmentOf(cgroupPlace{}, "no sandbox on this platform")
}

// detectForSelfTest is how the self-test learns the sandbox tool.
func detectForSelfTest() (Info, error) { return Detect() }

// ProcessLimits are the policy's own here.
func ProcessLimits(p Policy) (addressSpace int64, procs int) { return p.MemoryBytes, p.MaxProcs }
