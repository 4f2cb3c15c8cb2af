package sandbox

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// These attacks write the sandbox's cache as another local program, or a
// home folder copied from elsewhere, could: every stamp in it is made from
// public facts the way the app makes its own, so only what the cache
// cannot know (this install's key, this machine) tells it apart.

// freshProcess forgets what this process learned about the sandbox tool
// and the interpreters, before and after the test, as a new process would.
func freshProcess(t *testing.T) {
	forget := func() {
		detectOnce = sync.Once{}
		detected, detectErr = Info{}, nil
		seedMu.Lock()
		seededInfo = nil
		seedMu.Unlock()
		pythonCache.Clear()
		selfTestCache.Clear()
		factsHeld.Store(false)
	}
	forget()
	t.Cleanup(forget)
}

// hostSecret is a world-readable file outside everything the sandbox binds,
// in a folder the sandbox's unprivileged user could reach: only the mounts
// keep it out.
func hostSecret(t *testing.T) (dir, file, secret string) {
	// Not under /tmp, which the sandbox covers with its own.
	dir, err := os.MkdirTemp("/var/tmp", "kidcoder-hostsecret-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	secret = "HOST-SECRET-" + randomHex()
	file = filepath.Join(dir, "lib", "secret.txt")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file, secret
}

// honestFacts is what this machine really is, learned afresh.
func honestFacts(t *testing.T) (Info, pythonInfo) {
	t.Helper()
	info, err := Detect()
	if err != nil {
		t.Fatal(err)
	}
	pi, err := probePython(testPython)
	if err != nil {
		t.Fatal(err)
	}
	return info, pi
}

// plantedPython is an interpreter's facts as a planted cache may give them,
// with the folders to bind spelled out as the app once stored them.
type plantedPython struct {
	Exe     string   `json:"exe"`
	Version string   `json:"version"`
	Prefix  []string `json:"prefix"`
	Mounts  []string `json:"mounts"`
	Stamp   string   `json:"stamp"`
}

type plantedFacts struct {
	Stamp   string                   `json:"stamp"`
	Info    Info                     `json:"info"`
	Pythons map[string]plantedPython `json:"pythons"`
}

// How a planted cache is written: as a program without the key can (the
// facts as the app once stored them, or sealed with a key of its own), or
// as one that has the key. The last shows the values are checked even when
// the seal holds.
const (
	plainFile  = "plain"
	foreignKey = "foreign key"
	realKey    = "real key"
)

var plantings = []string{plainFile, foreignKey, realKey}

// plantFacts writes info and pi as the cache's facts, with stamps anyone
// can compute, the way how says.
func plantFacts(t *testing.T, dir, how string, info Info, pi pythonInfo) {
	t.Helper()
	f := plantedFacts{Stamp: machineStamp(info.Path), Info: info, Pythons: map[string]plantedPython{
		testPython: {Exe: pi.exe, Version: pi.version, Prefix: pi.prefix, Mounts: pi.mounts, Stamp: fileStamp(testPython, pi.exe)},
	}}
	plant(t, dir, factsFile, how, f)
}

func plant(t *testing.T, dir, name, how string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	switch how {
	case plainFile:
		b = data
	case foreignKey:
		b, _ = json.Marshal(sealed{MAC: hex.EncodeToString(cacheMAC([]byte("a key of the attacker's own"), hostIdentity(), name, data)), Data: data})
	case realKey:
		writeSealed(dir, name, v)
		if !readSealed(dir, name, new(json.RawMessage)) {
			t.Fatal("the real key's seal is not believed")
		}
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// plantVerdict writes a passing self-test verdict for info and build.
func plantVerdict(t *testing.T, dir, how, build string, info Info) {
	t.Helper()
	info.Containment = ContainmentInfo()
	key := selfTestKey(build, info, kernelRelease(), testPython)
	rep := Report{Info: info}
	for _, p := range probes {
		rep.Probes = append(rep.Probes, Probe{Name: p.name, Kind: p.kind, OK: true, Detail: "planted"})
	}
	plant(t, dir, verdictFile, how, []cachedVerdict{{Key: key, Report: rep}})
}

// cachedRun is a run of code in a process that started from the cache in dir.
func cachedRun(t *testing.T, dir, code string) Outcome {
	t.Helper()
	UseCache(dir)
	_, o := runCode(t, code, Spec{}, nil)
	return o
}

const readSecretCode = `import os
try:
    print("READ", open(os.environ["SECRET"]).read())
except OSError as e:
    print("BLOCKED", type(e).__name__)
`

func TestCachePlantedMountNotBelieved(t *testing.T) {
	needSandbox(t)
	secretDir, secretFile, secret := hostSecret(t)
	// The secret's own folder, and the root, which holds the interpreter
	// and, where /lib is /usr/lib, a lib/python3.x as a prefix does.
	for _, bound := range []string{secretDir, "/"} {
		for _, how := range plantings {
			t.Run(bound+" "+how, func(t *testing.T) {
				freshProcess(t)
				dir := t.TempDir()
				info, pi := honestFacts(t)
				pi.prefix = append(pi.prefix, bound)
				pi.mounts = append(pi.mounts, bound)
				plantFacts(t, dir, how, info, pi)
				UseCache(dir)
				_, o := runCode(t, readSecretCode, Spec{Env: []string{"SECRET=" + secretFile}}, nil)
				if strings.Contains(string(o.Stdout)+string(o.Stderr), secret) {
					t.Fatalf("a planted mount let the run read the host's secret: %s", o.Stdout)
				}
				if got := strings.TrimSpace(string(o.Stdout)); got != "BLOCKED FileNotFoundError" {
					t.Errorf("status %s, printed %q, want BLOCKED FileNotFoundError (stderr %s)", o.Status, got, clip(o.Stderr))
				}
			})
		}
	}
}

// wantHostUID is the host uid a child's program must run as.
func wantHostUID() int {
	if os.Geteuid() == 0 {
		return nobody
	}
	return os.Geteuid()
}

// hostUIDsOfRun starts a program that waits once it is up and returns the
// host's uids (real, effective, saved, file system) of every process of the
// run: bwrap, the sandbox's init and the program. Inside, nested user
// namespaces hide the host uid, so only the host can tell.
func hostUIDsOfRun(t *testing.T) map[int]string {
	t.Helper()
	mark := "kidcoder-uid-" + randomHex()[:12]
	up := make(chan struct{})
	var once sync.Once
	rec := &recorder{onOut: func(s Stream, b []byte) {
		if strings.Contains(string(b), "up") {
			once.Do(func() { close(up) })
		}
	}}
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.py")
	os.WriteFile(prog, []byte("import time\nprint('up', flush=True)\ntime.sleep(3600)\n"), 0o644)
	p, err := Start(context.Background(), Spec{
		Policy: testPolicy(), Python: testPython,
		Args:  []string{"-I", "-B", ScratchDir + "/prog.py", mark},
		Files: []Mount{{Host: prog, Sandbox: ScratchDir + "/prog.py"}},
	}, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Wait()
	defer p.Stop()
	done := make(chan Outcome, 1)
	go func() { done <- p.Wait() }()
	select {
	case <-up:
	case o := <-done:
		t.Fatalf("the program ended before it was up: status %s, stdout %q, stderr %s", o.Status, o.Stdout, clip(o.Stderr))
	}
	uids := map[int]string{}
	for _, pid := range hostProcessesWith(mark) {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(st), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				uids[pid] = strings.Join(strings.Fields(v), " ")
			}
		}
	}
	if len(uids) == 0 {
		t.Fatal("no process of the run found on the host")
	}
	return uids
}

func TestCachePlantedUIDNotBelieved(t *testing.T) {
	needSandbox(t)
	want := strings.Repeat(strconv.Itoa(wantHostUID())+" ", 4)
	for _, planted := range []int{-1, 0, 4242} {
		for _, how := range plantings {
			t.Run(strconv.Itoa(planted)+" "+how, func(t *testing.T) {
				freshProcess(t)
				dir := t.TempDir()
				info, pi := honestFacts(t)
				info.RunAsUID = planted
				plantFacts(t, dir, how, info, pi)
				UseCache(dir)
				for pid, got := range hostUIDsOfRun(t) {
					if got+" " != want {
						t.Errorf("with RunAsUID %d planted, process %d of the run has host uids %s, want %s", planted, pid, got, want)
					}
				}
			})
		}
	}
}

func TestCachePlantedToolNotUsed(t *testing.T) {
	needSandbox(t)
	for _, how := range plantings {
		t.Run(how, func(t *testing.T) { plantedToolNotUsed(t, how) })
	}
}

func plantedToolNotUsed(t *testing.T, how string) {
	freshProcess(t)
	dir := t.TempDir()
	// A "bwrap" that would run the program with no sandbox at all: here it
	// only leaves a mark and says so.
	fake := filepath.Join(t.TempDir(), "bwrap")
	mark := filepath.Join(t.TempDir(), "fake-bwrap-ran")
	script := "#!/bin/sh\necho ran > " + mark + "\necho UNSANDBOXED\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	info, pi := honestFacts(t)
	info.Path = fake
	plantFacts(t, dir, how, info, pi)
	plantVerdict(t, dir, how, "test-build", info)
	UseCache(dir)
	rep, err := SelfTestCached(context.Background(), testPython, dir, "test-build")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Info.Path == fake {
		t.Errorf("the self-test verdict names the planted tool %s", fake)
	}
	for _, p := range rep.Probes {
		if p.Detail == "planted" {
			t.Fatalf("a planted verdict was believed: probe %s was not run", p.Name)
		}
	}
	_, o := runCode(t, `print("hello")`, Spec{}, nil)
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the planted sandbox tool was run")
	}
	if got := strings.TrimSpace(string(o.Stdout)); got != "hello" || o.Status != StatusOK {
		t.Errorf("status %s, printed %q, want hello (stderr %s)", o.Status, got, clip(o.Stderr))
	}
}

func TestCachePlantedInterpreterNotUsed(t *testing.T) {
	needSandbox(t)
	for _, how := range plantings {
		t.Run(how, func(t *testing.T) { plantedInterpreterNotUsed(t, how) })
	}
}

func plantedInterpreterNotUsed(t *testing.T, how string) {
	freshProcess(t)
	dir := t.TempDir()
	// An "interpreter" in a folder of its own that the cache says to bind.
	fakeDir, err := os.MkdirTemp("/var/tmp", "kidcoder-fakepython-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(fakeDir) })
	os.Chmod(fakeDir, 0o755)
	fake := filepath.Join(fakeDir, "bin", "python3")
	os.MkdirAll(filepath.Dir(fake), 0o755)
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho PLANTED PYTHON\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	info, pi := honestFacts(t)
	pi.exe = fake
	pi.prefix = append(pi.prefix, fakeDir)
	pi.mounts = append(pi.mounts, fakeDir)
	plantFacts(t, dir, how, info, pi)
	o := cachedRun(t, dir, `print("hello")`)
	if got := strings.TrimSpace(string(o.Stdout)); got != "hello" || o.Status != StatusOK {
		t.Errorf("status %s, printed %q, want hello from the real interpreter (stderr %s)", o.Status, got, clip(o.Stderr))
	}
}

// A cache this install sealed is believed: the next process starts from
// it without probing the tool, the interpreter or the sandbox again.
func TestCacheOwnBelieved(t *testing.T) {
	needSandbox(t)
	freshProcess(t)
	dir := t.TempDir()
	want, err := SelfTestCached(context.Background(), testPython, dir, "test-build")
	if err != nil {
		t.Fatal(err)
	}
	honest, pi := honestFacts(t)
	freshProcess(t)
	UseCache(dir)
	info, ok := seeded()
	if !ok || info.Path != honest.Path || info.Version != honest.Version || info.Features != honest.Features || info.RunAsUID != honest.RunAsUID {
		t.Fatalf("the tool's facts were not taken from the cache: %+v, %v", info, ok)
	}
	e, ok := pythonCache.Load(testPython)
	if !ok {
		t.Fatal("the interpreter's facts were not taken from the cache")
	}
	got := e.(*pythonEntry).info
	if got.exe != pi.exe || got.version != pi.version || !slices.Equal(got.prefix, pi.prefix) || !slices.Equal(got.mounts, pi.mounts) {
		t.Errorf("cached interpreter %+v, probed %+v", got, pi)
	}
	rep, err := SelfTestCached(context.Background(), testPython, dir, "test-build")
	if err != nil || !slices.Equal(rep.Probes, want.Probes) {
		t.Errorf("the sealed verdict was not served: %v\n%+v\n%+v", err, rep.Probes, want.Probes)
	}
}

// tamper widens every interpreter in a cache file (the app's, sealed or
// not): whatever the shape, its data no longer matches its MAC.
func tamper(t *testing.T, file, bound string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	n := 0
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if _, ok := x["prefix"]; ok {
				x["prefix"] = append(x["prefix"].([]any), bound)
				x["mounts"] = []any{bound}
				n++
			}
			if _, ok := x["RunAsUID"]; ok {
				x["RunAsUID"] = -1
				n++
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	if n == 0 {
		t.Fatalf("nothing to tamper with in %s", b)
	}
	if b, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A cache this install wrote, then edited, is ignored: the facts are found
// afresh, the sandbox holds, and the next self-test seals them again.
func TestCacheTamperedIgnored(t *testing.T) {
	needSandbox(t)
	freshProcess(t)
	dir := t.TempDir()
	if _, err := SelfTestCached(context.Background(), testPython, dir, "test-build"); err != nil {
		t.Fatal(err)
	}
	secretDir, secretFile, secret := hostSecret(t)
	tamper(t, filepath.Join(dir, factsFile), secretDir)
	freshProcess(t)
	UseCache(dir)
	if _, ok := seeded(); ok {
		t.Error("edited tool facts were believed")
	}
	if _, ok := pythonCache.Load(testPython); ok {
		t.Error("edited interpreter facts were believed")
	}
	_, o := runCode(t, readSecretCode, Spec{Env: []string{"SECRET=" + secretFile}}, nil)
	if strings.Contains(string(o.Stdout)+string(o.Stderr), secret) || strings.TrimSpace(string(o.Stdout)) != "BLOCKED FileNotFoundError" {
		t.Fatalf("status %s, printed %q (stderr %s)", o.Status, o.Stdout, clip(o.Stderr))
	}
	for _, p := range hostUIDsOfRun(t) {
		if want := strings.Repeat(strconv.Itoa(wantHostUID())+" ", 4); p+" " != want {
			t.Errorf("host uids %s, want %s", p, want)
		}
	}
	if _, err := SelfTestCached(context.Background(), testPython, dir, "test-build"); err != nil {
		t.Fatal(err)
	}
	var f machineFacts
	if !readSealed(dir, factsFile, &f) || f.Pythons[testPython].Exe == "" {
		t.Errorf("the facts were not sealed again: %+v", f)
	}
}

// A sealed verdict edited to pass is ignored and the probes run.
func TestCacheTamperedVerdictIgnored(t *testing.T) {
	needSandbox(t)
	freshProcess(t)
	dir := t.TempDir()
	if _, err := SelfTestCached(context.Background(), testPython, dir, "test-build"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, verdictFile)
	b, _ := os.ReadFile(file)
	var s sealed
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var kept []cachedVerdict
	json.Unmarshal(s.Data, &kept)
	for i := range kept {
		for j := range kept[i].Report.Probes {
			kept[i].Report.Probes[j].Detail = "edited"
		}
	}
	s.Data, _ = json.Marshal(kept)
	b, _ = json.Marshal(s)
	os.WriteFile(file, b, 0o644)
	freshProcess(t)
	UseCache(dir)
	rep, err := SelfTestCached(context.Background(), testPython, dir, "test-build")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Probes {
		if p.Detail == "edited" {
			t.Fatalf("an edited verdict was believed: probe %s", p.Name)
		}
	}
}

// BenchmarkUseCache is what a start pays to check a sealed cache: the key,
// the MAC, and each fact against the machine.
func BenchmarkUseCache(b *testing.B) {
	if _, err := detectCached(); err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	info, err := Detect()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pythonInstall(testPython); err != nil {
		b.Fatal(err)
	}
	saveFacts(dir, info)
	for b.Loop() {
		seedMu.Lock()
		seededInfo = nil
		seedMu.Unlock()
		pythonCache.Delete(testPython)
		UseCache(dir)
		if !factsHeld.Load() {
			b.Fatal("the cache was not believed")
		}
	}
	detectOnce = sync.Once{}
	pythonCache.Clear()
}
