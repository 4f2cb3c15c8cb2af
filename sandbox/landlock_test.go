package sandbox

import (
	"errors"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/net/bpf"
)

func TestLandlockRules(t *testing.T) {
	plan := bwrapPlan{
		Root:     []rootEntry{{Path: "/bin", Link: "usr/bin"}, {Path: "/lib64"}},
		Python:   []string{"/opt/py"},
		Writable: []Mount{{Host: "/cache/mpl", Sandbox: "/kid/mpl"}},
	}
	const (
		rx  = 0b1101                      // read file, read dir, execute
		r   = 0b1100                      // read file, read dir
		dev = 1<<2 | 1<<1 | 1<<14 | 1<<15 // read, write, truncate, ioctl
		// read, write, remove dir/file, make dir/reg/sock/fifo/sym, refer, truncate
		rw = 1<<2 | 1<<3 | 1<<1 | 1<<4 | 1<<5 | 1<<7 | 1<<8 | 1<<9 | 1<<10 | 1<<12 | 1<<13 | 1<<14
	)
	want := landlockWall{ABI: 7, FS: 1<<16 - 1, Net: 3, Scoped: 3, Rules: []landlockRule{
		{rx, "/usr"}, {rx, "/lib64"}, {rx, "/opt/py"},
		{r, "/etc/ld.so.cache"}, {r, "/etc/alternatives"}, {r, "/etc/localtime"}, {r, "/etc/fonts"}, {r, "/etc/matplotlibrc"},
		{r, "/proc"},
		{dev, "/dev/null"}, {dev, "/dev/zero"}, {dev, "/dev/full"}, {dev, "/dev/random"}, {dev, "/dev/urandom"},
		{r, "/kid/py"}, {r, "/kid/py/__pycache__"},
		{rw, "/tmp"}, {rw, "/kid/home"}, {rw, "/kid/mpl"},
	}}
	got := landlockRules(9, plan, []string{"/kid/py", "/kid/py/__pycache__", "/kid/py"})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("landlockRules(9) =\n%+v\nwant\n%+v", got, want)
	}
	// Nothing writable is executable, and nothing outside scratch, /tmp and
	// the writable mounts is writable.
	for _, rule := range got.Rules {
		writable := rule.Path == "/tmp" || rule.Path == ScratchDir || rule.Path == "/kid/mpl" || strings.HasPrefix(rule.Path, "/dev/")
		if rule.Access&llFsWriteFile != 0 && !writable {
			t.Errorf("%s is writable", rule.Path)
		}
		if rule.Access&llFsExecute != 0 && rule.Access&llFsWriteFile != 0 {
			t.Errorf("%s is writable and executable", rule.Path)
		}
		if rule.Access&(llFsMakeChar|llFsMakeBlock) != 0 {
			t.Errorf("%s may hold new device nodes", rule.Path)
		}
	}
	// An older kernel gets the rights its ABI knows and no more; a rule
	// never grants a right the ruleset does not handle.
	for abi, w := range map[int]struct{ fs, net, scoped uint64 }{
		1: {1<<13 - 1, 0, 0}, 2: {1<<14 - 1, 0, 0}, 3: {1<<15 - 1, 0, 0},
		4: {1<<15 - 1, 3, 0}, 5: {1<<16 - 1, 3, 0}, 6: {1<<16 - 1, 3, 3}, 7: {1<<16 - 1, 3, 3},
	} {
		got := landlockRules(abi, plan, nil)
		if got.ABI != abi || got.FS != w.fs || got.Net != w.net || got.Scoped != w.scoped {
			t.Errorf("ABI %d: handled fs %#x net %#x scoped %#x, want %#x %#x %#x", abi, got.FS, got.Net, got.Scoped, w.fs, w.net, w.scoped)
		}
		for _, rule := range got.Rules {
			if rule.Access&^got.FS != 0 {
				t.Errorf("ABI %d: %s grants %#x, beyond the handled %#x", abi, rule.Path, rule.Access, got.FS)
			}
		}
	}
	if w := landlockRules(0, plan, nil); w.ABI != 0 || len(w.Rules) != 0 {
		t.Errorf("no Landlock: %+v, want no wall", w)
	}
}

func TestLandlockABIFor(t *testing.T) {
	for _, c := range []struct {
		mode   LandlockMode
		kernel int
		want   int
		code   string // "" means no error
	}{
		{"", 0, 0, ""},
		{LandlockBestEffort, 0, 0, ""},
		{LandlockBestEffort, 2, 2, ""},
		{"", 7, 7, ""},
		{LandlockBestEffort, 9, 7, ""},
		{LandlockRequired, 7, 7, ""},
		{LandlockRequired, 6, 6, ""},
		{LandlockRequired, 5, 0, "landlock_missing"},
		{LandlockRequired, 0, 0, "landlock_missing"},
	} {
		got, err := landlockABIFor(c.mode, c.kernel)
		var ue *UnavailableError
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%q on ABI %d: %v", c.mode, c.kernel, err)
		case c.code != "" && (!errors.As(err, &ue) || ue.Code != c.code || !errors.Is(err, ErrUnavailable) || !strings.Contains(ue.Reason, "Landlock")):
			t.Errorf("%q on ABI %d: error %v, want %s naming Landlock", c.mode, c.kernel, err, c.code)
		case got != c.want:
			t.Errorf("%q on ABI %d: ABI %d, want %d", c.mode, c.kernel, got, c.want)
		}
	}
	if _, err := landlockABIFor("off", 7); err == nil {
		t.Error("an unknown mode was taken")
	}
}

func TestLandlockCommand(t *testing.T) {
	w := landlockWall{ABI: 7, FS: 65535, Net: 3, Scoped: 3, Rules: []landlockRule{{13, "/usr"}, {16383, "/kid/home"}}}
	l := rlimitValues{AS: 512 << 20, CPU: 3, FSize: 16 << 20, NProc: 64, NoFile: 256}
	got := landlockCommand("/usr/bin/python3", l, w, 10, []string{"/usr/bin/python3", "-I", "x.py"})
	want := []string{"/usr/bin/python3", "-I", "-S", "-c", landlockStubCode,
		"536870912", "3", "16777216", "64", "256", "0",
		"10", "65535", "3", "3", "2", "13", "/usr", "16383", "/kid/home",
		"/usr/bin/python3", "-I", "x.py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("landlockCommand = %q\nwant %q", got, want)
	}
	if strings.Contains(landlockStubCode, "FILE_RIGHTS") || !strings.Contains(landlockStubCode, "m&=49159") {
		t.Error("the stub's file rights are not filled in")
	}
}

func TestParseWallReport(t *testing.T) {
	if err := parseWallReport([]byte("ok\n")); err != nil {
		t.Errorf("ok: %v", err)
	}
	for in, want := range map[string]string{
		"":                     errNoWallReport.Error(),
		"ok":                   errNoWallReport.Error(),
		"fail restrict 1\n":    "landlock restrict: operation not permitted",
		"fail ctypes 0\n":      "landlock ctypes failed",
		"fail ruleset 38\n":    "landlock ruleset: function not implemented",
		"hello from a child\n": "Landlock report",
	} {
		err := parseWallReport([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	err := parseWallReport([]byte("fail add_rule 22\n"))
	if se := setupErr("landlock", err); se.Errno() != "EINVAL" {
		t.Errorf("errno %q, want EINVAL", se.Errno())
	}
	var n syscall.Errno
	if !errors.As(err, &n) || n != syscall.EINVAL {
		t.Errorf("%v does not wrap EINVAL", err)
	}
}

// The stub's own calls pass the seccomp filter: Landlock can only take
// rights away, so the program may call it too.
func TestSeccompAllowsLandlock(t *testing.T) {
	for _, goarch := range []string{"amd64", "arm64"} {
		prog, err := seccompProgram(goarch)
		if err != nil {
			t.Fatal(err)
		}
		vm, err := bpf.NewVM(prog)
		if err != nil {
			t.Fatal(err)
		}
		for _, nr := range []uint32{444, 445, 446} {
			got, err := vm.Run(seccompData(seccompArches[goarch].audit, nr))
			if err != nil || uint32(got) != seccompRetAllow {
				t.Errorf("%s: syscall %d: action %#x (%v), want allow", goarch, nr, uint32(got), err)
			}
		}
	}
}
