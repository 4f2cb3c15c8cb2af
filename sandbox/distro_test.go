package sandbox

import (
	"strings"
	"testing"
)

// The fix is one command for this distribution; each other distribution's
// command stands alone, so any line can be pasted into a terminal.
func TestInstallCommandForTheDistribution(t *testing.T) {
	for _, tt := range []struct {
		name, osRelease, pkg, want string
	}{
		{"debian", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nID=debian\n", "bubblewrap", "sudo apt install bubblewrap"},
		{"ubuntu", "NAME=\"Ubuntu\"\nID=ubuntu\nID_LIKE=debian\n", "bubblewrap", "sudo apt install bubblewrap"},
		{"mint", "NAME=\"Linux Mint\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\n", "bubblewrap", "sudo apt install bubblewrap"},
		{"fedora", "NAME=\"Fedora Linux\"\nID=fedora\n", "bubblewrap", "sudo dnf install bubblewrap"},
		{"rocky", "ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n", "bubblewrap", "sudo dnf install bubblewrap"},
		{"arch", "NAME=\"Arch Linux\"\nID=arch\n", "bubblewrap", "sudo pacman -S bubblewrap"},
		{"manjaro", "ID=manjaro\nID_LIKE=arch\n", "python3", "sudo pacman -S python"},
		{"tumbleweed", "NAME=\"openSUSE Tumbleweed\"\nID=\"opensuse-tumbleweed\"\nID_LIKE=\"opensuse suse\"\n", "bubblewrap", "sudo zypper install bubblewrap"},
		{"unknown", "ID=nixos\n", "bubblewrap", ""},
		{"no file", "", "bubblewrap", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, others := installFor(tt.osRelease, tt.pkg)
			if got != tt.want {
				t.Errorf("command %q, want %q", got, tt.want)
			}
			want := 3
			if tt.want == "" {
				want = 4
			}
			if len(others) != want {
				t.Errorf("%d other commands, want %d: %v", len(others), want, others)
			}
			for _, c := range append(others, InstallCommand{Command: got}) {
				if c.Command == "" {
					continue
				}
				f := strings.Fields(c.Command)
				if c.Command == got && c.Distro != "" || len(f) < 3 || f[0] != "sudo" || strings.ContainsAny(c.Command, "();:,") {
					t.Errorf("not one runnable command: %q", c.Command)
				}
				if c.Command == tt.want && c.Distro != "" {
					t.Errorf("this distribution's command is listed among the others too")
				}
			}
		})
	}
}

// A missing bwrap names the reason by code and gives this machine's command
// alone, not a list in brackets.
func TestMissingBwrapFix(t *testing.T) {
	ue := bwrapMissing("bwrap_missing", "bubblewrap (bwrap) is not installed", nil)
	if ue.Code != "bwrap_missing" || strings.ContainsAny(ue.Fix, "();") {
		t.Errorf("%+v", ue)
	}
	if len(ue.FixOthers) < 3 {
		t.Errorf("other distributions: %v", ue.FixOthers)
	}
}
