package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Facts about this machine (where the sandbox tool is, what it supports,
// where each interpreter's installation lives) cost several process starts
// to learn. A passing self-test writes them beside its verdict, and UseCache
// lets the next process start from them, so `kidcoder run` stays close to a
// bare Python start. They are trusted only while the files they describe are
// unchanged (path, size, mode, modification time), the kernel is the same and
// the user namespace settings are the same; anything else probes afresh. A
// stale fact can only make a run fail, never run code unsandboxed: Start still
// builds the full sandbox.

type pythonFacts struct {
	Exe     string   `json:"exe"`
	Version string   `json:"version"`
	Prefix  []string `json:"prefix"`
	Mounts  []string `json:"mounts"`
	Stamp   string   `json:"stamp"`
}

type machineFacts struct {
	Stamp   string                 `json:"stamp"`
	Info    Info                   `json:"info"`
	Pythons map[string]pythonFacts `json:"pythons"`
}

const factsFile = "sandbox-facts.json"

var (
	seedMu     sync.Mutex
	seededInfo *Info
)

// fileStamp is what must not change for a fact about path to hold.
func fileStamp(paths ...string) string {
	h := sha256.New()
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%d\x00%o\x00%d\x00", p, fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// machineStamp covers the sandbox tool, the kernel, who we run as and the
// knobs that decide whether namespaces may be created.
func machineStamp(tool string) string {
	s := fileStamp(tool)
	if s == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00", s, kernelRelease(), os.Geteuid())
	for _, p := range []string{
		"/proc/sys/kernel/unprivileged_userns_clone",
		"/proc/sys/user/max_user_namespaces",
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
	} {
		b, _ := os.ReadFile(p)
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// UseCache loads the facts a passing self-test stored in dir, where they
// still hold. Call it before FindPython and Start; it is safe to skip.
func UseCache(dir string) {
	// Where run groups go is this process's own finding, never cached, and
	// costs a dozen round trips to the control-group file system: it is
	// found meanwhile, so the first run does not wait for it.
	go ContainmentInfo()
	b, err := os.ReadFile(filepath.Join(dir, factsFile))
	if err != nil {
		return
	}
	var f machineFacts
	if json.Unmarshal(b, &f) != nil {
		return
	}
	if f.Info.Path != "" && f.Stamp != "" && machineStamp(f.Info.Path) == f.Stamp {
		seedMu.Lock()
		info := f.Info
		seededInfo = &info
		seedMu.Unlock()
	}
	for cand, pf := range f.Pythons {
		if pf.Stamp == "" || fileStamp(cand, pf.Exe) != pf.Stamp {
			continue
		}
		ent := &pythonEntry{}
		ent.once.Do(func() {
			ent.info = pythonInfo{exe: pf.Exe, version: pf.Version, prefix: pf.Prefix, mounts: pf.Mounts}
		})
		pythonCache.LoadOrStore(cand, ent)
	}
}

// seeded is the Info UseCache loaded, if any.
func seeded() (Info, bool) {
	seedMu.Lock()
	defer seedMu.Unlock()
	if seededInfo == nil {
		return Info{}, false
	}
	return *seededInfo, true
}

// saveFacts records what this process learned, after a passing self-test.
func saveFacts(dir string, info Info) {
	f := machineFacts{Stamp: machineStamp(info.Path), Info: info, Pythons: map[string]pythonFacts{}}
	pythonCache.Range(func(k, v any) bool {
		ent := v.(*pythonEntry)
		if ent.err == nil && ent.info.exe != "" {
			cand := k.(string)
			f.Pythons[cand] = pythonFacts{Exe: ent.info.exe, Version: ent.info.version,
				Prefix: ent.info.prefix, Mounts: ent.info.mounts, Stamp: fileStamp(cand, ent.info.exe)}
		}
		return true
	})
	b, err := json.Marshal(f)
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	file := filepath.Join(dir, factsFile)
	tmp := file + ".tmp" + strconv.Itoa(os.Getpid())
	if os.WriteFile(tmp, b, 0o644) == nil {
		os.Rename(tmp, file)
	}
}
