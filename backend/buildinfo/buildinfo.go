// Package buildinfo holds the version, commit and build date stamped into the binaries at build time.
package buildinfo

import (
	"fmt"
	"os"
	"runtime/debug"
)

// Set with -ldflags "-X kidcoder/buildinfo.Version=... -X ...Commit=... -X ...Date=...".
var (
	Version = "0.0.0-dev"
	Commit  = ""
	Date    = ""
)

// String is the one-line answer of `kidcoder version`.
func String() string {
	commit := Commit
	if commit == "" {
		commit = vcsRevision()
	}
	if commit == "" {
		commit = "unknown"
	}
	date := Date
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("kidcoder %s (commit %s, built %s)", Version, commit, date)
}

// ID identifies this build, so caches made by another build are not trusted.
// A stamped build (make build stamps the command line and the window binary
// alike) is named by its stamp, so the two binaries share their caches; an
// unstamped one by its executable's size and modification time, which change
// with every build and cost nothing to read, unlike hashing the binary.
func ID() string {
	id := Version + "+" + Commit
	if Date != "" && Commit != "" {
		return id + "+" + Date
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf("+%d+%d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return id
}

func vcsRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return s.Value[:12]
		}
	}
	return ""
}
