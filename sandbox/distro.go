package sandbox

import (
	"os"
	"strings"
	"sync"
)

// InstallCommand is one distribution's command that installs a package,
// runnable on its own in a terminal.
type InstallCommand struct {
	Distro  string `json:"distro"`  // "Debian / Ubuntu", "Fedora", ...
	Command string `json:"command"` // "sudo apt install bubblewrap"
}

// packageManagers are the families whose command the fix can name, in the
// order the others are listed. Package names differ only for Python on Arch.
var packageManagers = []struct {
	distro  string
	ids     []string // os-release ID or ID_LIKE values of the family
	install string
	python  string
}{
	{"Debian / Ubuntu", []string{"debian", "ubuntu"}, "sudo apt install", "python3"},
	{"Fedora", []string{"fedora", "rhel", "centos"}, "sudo dnf install", "python3"},
	{"Arch", []string{"arch", "archlinux"}, "sudo pacman -S", "python"},
	{"openSUSE", []string{"opensuse", "suse", "sles", "opensuse-leap", "opensuse-tumbleweed"}, "sudo zypper install", "python3"},
}

// installFor gives the command that installs pkg ("bubblewrap" or
// "python3") on the distribution osRelease (the text of /etc/os-release)
// describes, "" when it is none of the known families, and every other
// family's command. The first family that the ID, then ID_LIKE, names wins,
// so Ubuntu (ID_LIKE=debian) gets apt and Manjaro (ID_LIKE=arch) pacman.
func installFor(osRelease, pkg string) (string, []InstallCommand) {
	id, like := "", ""
	for _, line := range strings.Split(osRelease, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		v = strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`))
		switch k {
		case "ID":
			id = v
		case "ID_LIKE":
			like = v
		}
	}
	mine := -1
	for _, want := range append([]string{id}, strings.Fields(like)...) {
		for i, pm := range packageManagers {
			for _, x := range pm.ids {
				if want != "" && (want == x || strings.HasPrefix(want, x+"-")) && mine < 0 {
					mine = i
				}
			}
		}
	}
	cmd := ""
	var others []InstallCommand
	for i, pm := range packageManagers {
		name := pkg
		if pkg == "python3" {
			name = pm.python
		}
		c := pm.install + " " + name
		if i == mine {
			cmd = c
			continue
		}
		others = append(others, InstallCommand{Distro: pm.distro, Command: c})
	}
	return cmd, others
}

var osRelease = sync.OnceValue(func() string {
	for _, p := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
	}
	return ""
})

// InstallCommands gives the command that installs pkg ("bubblewrap" or
// "python3") on this machine's distribution ("" when it is not one of the
// known families) and the other distributions' commands.
func InstallCommands(pkg string) (string, []InstallCommand) {
	return installFor(osRelease(), pkg)
}

// bwrapMissing is the error for a bubblewrap that is absent or unusable.
func bwrapMissing(code, reason string, err error) *UnavailableError {
	fix, others := InstallCommands("bubblewrap")
	return &UnavailableError{Code: code, Reason: reason, Fix: fix, FixOthers: others, Err: err}
}
