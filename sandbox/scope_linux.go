package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownScopeEnv marks a process that EnterOwnScope has already placed (or
// tried to place), so it never asks twice.
const ownScopeEnv = "KIDCODER_OWN_SCOPE"

// EnterOwnScope starts the program again inside a scope of the user's own
// systemd when its runs could not be bounded where it is, and returns only
// if it stays where it is.
//
// On cgroup v2 a non-root app bounds runs in a scope systemd delegates to
// it, below user@UID.service. The kernel moves a process between two
// groups only for a writer of their common ancestor's cgroup.procs; an app
// started from a login session (a terminal, ssh, a desktop that starts its
// apps inside the session) lives in session-N.scope, whose common ancestor
// with any scope of the user is user-UID.slice, which root owns. Every run
// would fail to enter its group. Started again by `systemd-run --user
// --scope`, the app lives below user@UID.service, as apps of GNOME and KDE
// do, and its runs enter their groups. This costs one systemd-run (tens of
// milliseconds) when the program starts, never a run.
func EnterOwnScope() {
	argv, ok := ownScopeArgv()
	if !ok {
		return
	}
	env := append(os.Environ(), ownScopeEnv+"=1")
	// On success this does not return; on failure the app goes on where it
	// is, and its runs explain that they cannot be bounded.
	_ = syscall.Exec(argv[0], argv, env)
}

// ownScopeArgv is the systemd-run command line that starts this program
// again in a scope of the user's manager, and whether one is needed and
// can work: cgroup v2, not root, not placed already, outside the user
// manager's subtree, systemd-run installed and the user manager listening.
func ownScopeArgv() ([]string, bool) {
	if os.Geteuid() == 0 || os.Getenv(ownScopeEnv) != "" {
		return nil, false
	}
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil || !outsideUserManager(string(self), os.Getuid()) {
		return nil, false
	}
	run, err := exec.LookPath("systemd-run")
	if err != nil {
		return nil, false
	}
	// systemd-run --user reaches the manager on its private socket.
	rt := os.Getenv("XDG_RUNTIME_DIR")
	if rt == "" {
		rt = "/run/user/" + strconv.Itoa(os.Getuid())
	}
	if st, err := os.Stat(filepath.Join(rt, "systemd", "private")); err != nil || st.Mode()&os.ModeSocket == 0 {
		return nil, false
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, false
	}
	return append([]string{run, "--user", "--scope", "--quiet", "--collect",
		"--unit=" + scopeUnit(parentName(), "kidcoder-app-"),
		"--", exe}, os.Args[1:]...), true
}

// scopeUnit names a systemd scope after a parent's random name, with the
// scope's own prefix in place of a parent's: the app's scope and its runs'
// scope never take each other's names, nor a parent's.
func scopeUnit(name, prefix string) string {
	return strings.Replace(name, parentPrefix, prefix, 1)
}

// outsideUserManager says whether a /proc/PID/cgroup text puts the process
// on cgroup v2 outside user@uid.service, the subtree the user owns. A
// hybrid or v1 system answers false: its groups are root's alone anyway.
func outsideUserManager(selfCgroup string, uid int) bool {
	p := v2PathOf(selfCgroup)
	if p == "" || strings.Contains(selfCgroup, ":memory:") || strings.Contains(selfCgroup, ":pids:") {
		return false
	}
	manager := "/user@" + strconv.Itoa(uid) + ".service"
	return !strings.Contains(p+"/", manager+"/")
}

// groupPlaceKey names where this process lives, as far as it decides
// whether its runs can enter their groups: a self-test verdict from inside
// the user's manager says nothing about a process in a login session.
func groupPlaceKey() string {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err == nil && os.Geteuid() != 0 && outsideUserManager(string(self), os.Getuid()) {
		return "outside-user-manager"
	}
	return ""
}
