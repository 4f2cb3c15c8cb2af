package sandbox

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Parsers of /proc texts the host reads about a run's processes; pure, so
// they are tested on any OS.

// readSyscalls are the numbers of read(2) and readv(2): a task blocked in
// one of them on fd 0 is waiting for input.
var readSyscalls = map[string][2]int{"amd64": {0, 19}, "arm64": {63, 65}}

// blockedReadingFD0 reads /proc/PID/task/TID/syscall: "NR ARG0 ..." while
// the task sleeps in a system call, "running" otherwise.
func blockedReadingFD0(b []byte, reads [2]int) bool {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return false
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || (nr != reads[0] && nr != reads[1]) {
		return false
	}
	arg, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
	return err == nil && arg == 0
}

// taskState is the state letter of /proc/PID/stat (R, S, D, Z, ...).
func taskState(stat []byte) byte {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return 0
	}
	return stat[i+2]
}

// cpuTimes is utime+stime and cutime+cstime (reaped children) from
// /proc/PID/stat, in USER_HZ (100 on Linux).
func cpuTimes(stat []byte) (own, children time.Duration) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(string(stat[i+1:]))
	// After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
	if len(f) < 15 {
		return 0, 0
	}
	var v [4]int64
	for k := range v {
		n, err := strconv.ParseInt(f[11+k], 10, 64)
		if err != nil {
			return 0, 0
		}
		v[k] = n
	}
	tick := time.Second / 100
	return time.Duration(v[0]+v[1]) * tick, time.Duration(v[2]+v[3]) * tick
}
