package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNoPython is returned (wrapped) by FindPython when no usable Python
// 3.8 or newer is installed.
var ErrNoPython = errors.New("no usable Python 3.8+ found")

// pythonCandidates lists interpreters to try, best first. On macOS the
// Xcode Command Line Tools' python3 is named by its real path only when
// xcode-select reports a developer dir (clt != ""): /usr/bin/python3 is
// a stub that pops up an installer when the tools are missing.
func pythonCandidates(goos, preferred, clt string) []string {
	var c []string
	if preferred != "" {
		return []string{preferred}
	}
	switch goos {
	case "linux":
		c = []string{"/usr/bin/python3", "/usr/local/bin/python3"}
	case "darwin":
		c = []string{
			"/opt/homebrew/bin/python3",
			"/usr/local/bin/python3",
			"/Library/Frameworks/Python.framework/Versions/Current/bin/python3",
		}
		if clt != "" {
			c = append(c, filepath.Join(clt, "usr/bin/python3"))
		}
	}
	return c
}

// pythonProbe is run by the (trusted) host interpreter once per path:
// version, then the installation prefixes the sandbox must mount.
const pythonProbe = `import sys;print("%d.%d"%sys.version_info[:2]);print(sys.prefix);print(sys.base_prefix);print(sys.executable)`

type pythonInfo struct {
	exe     string   // resolved absolute path
	version string   // "3.11"
	prefix  []string // sys.prefix and sys.base_prefix, resolved
	mounts  []string // prefix dirs outside /usr that the sandbox must bind
}

var pythonCache sync.Map // path -> *pythonEntry

type pythonEntry struct {
	once sync.Once
	info pythonInfo
	err  error
}

// pythonInstall probes an interpreter once per process and path.
func pythonInstall(path string) (pythonInfo, error) {
	e, _ := pythonCache.LoadOrStore(path, &pythonEntry{})
	ent := e.(*pythonEntry)
	ent.once.Do(func() { ent.info, ent.err = probePython(path) })
	return ent.info, ent.err
}

func probePython(path string) (pythonInfo, error) {
	var pi pythonInfo
	if !filepath.IsAbs(path) {
		return pi, fmt.Errorf("%w: %q is not an absolute path", ErrNoPython, path)
	}
	exe, err := filepath.EvalSymlinks(path)
	if err != nil {
		return pi, fmt.Errorf("%w: %s: %v", ErrNoPython, path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-I", "-S", "-c", pythonProbe)
	cmd.Env = []string{}
	out, err := cmd.Output()
	if err != nil {
		return pi, fmt.Errorf("%w: %s does not run: %v", ErrNoPython, exe, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		return pi, fmt.Errorf("%w: %s gave unexpected output", ErrNoPython, exe)
	}
	pi.exe, pi.version = exe, strings.TrimSpace(lines[0])
	if !versionAtLeast(pi.version, 3, 8) {
		return pi, fmt.Errorf("%w: %s is Python %s", ErrNoPython, exe, pi.version)
	}
	seen := map[string]bool{}
	add := func(d string) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		if d == "" || seen[d] {
			return
		}
		seen[d] = true
		pi.prefix = append(pi.prefix, d)
		if d != "/usr" && !strings.HasPrefix(d, "/usr/") {
			pi.mounts = append(pi.mounts, d)
		}
	}
	add(strings.TrimSpace(lines[1]))
	add(strings.TrimSpace(lines[2]))
	// An interpreter binary outside its prefix (rare; some framework
	// builds) must be visible too.
	inside := false
	for _, d := range pi.prefix {
		if strings.HasPrefix(exe, d+"/") {
			inside = true
		}
	}
	if !inside && !strings.HasPrefix(exe, "/usr/") {
		add(filepath.Dir(exe))
	}
	return pi, nil
}

func versionAtLeast(v string, major, minor int) bool {
	a, b, ok := strings.Cut(v, ".")
	if !ok {
		return false
	}
	ma, err1 := strconv.Atoi(a)
	mi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// findPythonIn returns the first usable candidate, or an error naming each
// one tried and why it was refused.
func findPythonIn(cands []string, install string) (string, error) {
	var why []string
	for _, c := range cands {
		if _, err := os.Stat(c); err != nil {
			why = append(why, c+": not found")
			continue
		}
		pi, err := pythonInstall(c)
		if err != nil {
			why = append(why, err.Error())
			continue
		}
		return pi.exe, nil
	}
	return "", fmt.Errorf("%w (tried %s); install it: %s", ErrNoPython, strings.Join(why, "; "), install)
}
