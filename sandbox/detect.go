package sandbox

import (
	"fmt"
	"regexp"
	"strings"
)

var bwrapVersionRE = regexp.MustCompile(`(?m)^bubblewrap\s+(\d+(?:\.\d+)*)`)

// parseBwrapVersion reads `bwrap --version` output ("bubblewrap 0.8.0").
func parseBwrapVersion(out string) (string, error) {
	m := bwrapVersionRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("unrecognised bwrap --version output %q", strings.TrimSpace(out))
	}
	return m[1], nil
}

// parseBwrapFeatures reads `bwrap --help`: each option is listed at the
// start of a line, so a flag merely mentioned in a description never counts.
func parseBwrapFeatures(help string) Features {
	has := map[string]bool{}
	for _, line := range strings.Split(help, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && strings.HasPrefix(f[0], "--") {
			has[f[0]] = true
		}
	}
	return Features{
		DisableUserns:    has["--disable-userns"],
		Size:             has["--size"],
		Seccomp:          has["--seccomp"],
		CapDrop:          has["--cap-drop"],
		UnshareCgroupTry: has["--unshare-cgroup-try"],
		InfoFD:           has["--info-fd"],
		DieWithParent:    has["--die-with-parent"],
	}
}

// missingFeatures names the required options an old bwrap lacks: without
// any of them a limit or the kill of the whole sandbox would not hold.
func missingFeatures(f Features) []string {
	var miss []string
	for _, r := range []struct {
		ok   bool
		name string
	}{
		{f.Seccomp, "--seccomp"},
		{f.Size, "--size"},
		{f.CapDrop, "--cap-drop"},
		{f.InfoFD, "--info-fd"},
		{f.DieWithParent, "--die-with-parent"},
	} {
		if !r.ok {
			miss = append(miss, r.name)
		}
	}
	return miss
}

// usernsState is what the kernel says about unprivileged user namespaces;
// an empty string means the knob does not exist on this kernel.
type usernsState struct {
	UnprivilegedClone  string // /proc/sys/kernel/unprivileged_userns_clone (Debian, older kernels)
	MaxUserNamespaces  string // /proc/sys/user/max_user_namespaces
	AppArmorRestrict   string // /proc/sys/kernel/apparmor_restrict_unprivileged_userns (Ubuntu 23.10+)
	AppArmorBwrapAllow bool   // an AppArmor profile grants bwrap "userns"
	BwrapSetuid        bool   // bwrap is installed setuid root (does not need unprivileged userns)
}

// diagnoseUserns turns the kernel's user-namespace knobs into the exact
// fix, or nil when bwrap should be able to create its namespaces.
func diagnoseUserns(s usernsState) *UnavailableError {
	if s.BwrapSetuid {
		return nil
	}
	switch {
	case strings.TrimSpace(s.MaxUserNamespaces) == "0":
		return &UnavailableError{
			Code:   "userns",
			Reason: "user namespaces are disabled (user.max_user_namespaces = 0)",
			Fix:    "sudo sysctl -w user.max_user_namespaces=15000 && echo user.max_user_namespaces=15000 | sudo tee /etc/sysctl.d/90-kidcoder-userns.conf",
		}
	case strings.TrimSpace(s.UnprivilegedClone) == "0":
		return &UnavailableError{
			Code:   "userns",
			Reason: "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)",
			Fix:    "sudo sysctl -w kernel.unprivileged_userns_clone=1 && echo kernel.unprivileged_userns_clone=1 | sudo tee /etc/sysctl.d/90-kidcoder-userns.conf",
		}
	case strings.TrimSpace(s.AppArmorRestrict) == "1" && !s.AppArmorBwrapAllow:
		return &UnavailableError{
			Code:   "userns",
			Reason: "AppArmor restricts unprivileged user namespaces and has no profile allowing bwrap",
			Fix: "sudo apt install apparmor-profiles (it ships /etc/apparmor.d/bwrap-userns-restrict), or create /etc/apparmor.d/bwrap containing " +
				"'abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }' " +
				"then sudo systemctl reload apparmor",
		}
	}
	return nil
}

// appArmorAllowsBwrap reports whether a profile text attaches to bwrap
// and grants it user namespaces.
func appArmorAllowsBwrap(profile string) bool {
	return strings.Contains(profile, "bwrap") && regexp.MustCompile(`(?m)^\s*userns\b`).MatchString(profile)
}
