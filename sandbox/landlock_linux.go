package sandbox

import (
	"bytes"
	"io"
	"sync"

	"golang.org/x/sys/unix"
)

// landlockPlatform says the kernel may have Landlock.
const landlockPlatform = true

var (
	landlockOnce sync.Once
	landlockSeen int
)

// landlockABI is the Landlock ABI this kernel offers, 0 when it has none
// (too old, or the LSM not enabled), at most landlockKnownABI. It is this
// process's own finding, never a fact from the cache: a planted 0 would
// take the second wall down.
func landlockABI() int {
	landlockOnce.Do(func() {
		n, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if errno == 0 && int(n) > 0 {
			landlockSeen = min(int(n), landlockKnownABI)
		}
	})
	return landlockSeen
}

// kernelLandlockABI is landlockABI; a test puts an older kernel in its place.
var kernelLandlockABI = landlockABI

// readWallReport waits for the stub's report on r: nil once the wall
// stands. Everything of the run, and with it the pipe's last writer, dies
// on a kill, so the read ends however the run is cut short.
func readWallReport(r io.Reader) error {
	b := make([]byte, 0, maxWallReport)
	buf := make([]byte, maxWallReport)
	for len(b) < maxWallReport && bytes.IndexByte(b, '\n') < 0 {
		n, err := r.Read(buf[:maxWallReport-len(b)])
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	return parseWallReport(b)
}
