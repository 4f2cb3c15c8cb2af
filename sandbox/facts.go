package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"kidcoder/backend/atomicfile"
	"kidcoder/backend/safefile"
)

// Facts about this machine (where the sandbox tool is, what it supports,
// where each interpreter's installation lives) cost several process starts
// to learn. A passing self-test writes them beside its verdict, and UseCache
// lets the next process start from them, so `kidcoder run` stays close to a
// bare Python start.
//
// The cache can only make a start faster, never the sandbox wider. Another
// program of the user, or a home folder copied from elsewhere, can write
// the cache folder, so nothing in it is believed unless both hold:
//   - it carries a MAC made with this install's key (cacheKey), over this
//     machine and boot (hostIdentity) and the user, so a copied or edited
//     file is ignored;
//   - each value that decides the sandbox is what this machine is now: the
//     tool is the one Detect would find, the files it names are unchanged
//     (device, inode, size, mode, modification and change time), the
//     interpreter is where its path leads, and its prefixes are installations
//     holding it. Who runs the sandbox (RunAsUID), how runs are bounded and
//     which folders are bound are found again, never read.
// Anything else probes afresh, which costs time only.

type pythonFacts struct {
	Exe     string   `json:"exe"`
	Version string   `json:"version"`
	Prefix  []string `json:"prefix"`
	Stamp   string   `json:"stamp"`
}

type machineFacts struct {
	Stamp   string                 `json:"stamp"`
	Info    Info                   `json:"info"`
	Pythons map[string]pythonFacts `json:"pythons"`
}

const (
	factsFile   = "sandbox-facts.json"
	verdictFile = "sandbox-selftest.json"
	// maxCacheFile bounds what is read of a cache file: a few interpreters'
	// facts or eight verdicts take a few KiB.
	maxCacheFile = 1 << 20
)

var (
	seedMu     sync.Mutex
	seededInfo *Info
	// factsHeld says UseCache believed every fact the cache held: where it
	// did not, a verdict served from disk seals this process's facts anew,
	// so one bad file costs one slow start, not every start after it.
	factsHeld atomic.Bool
)

// fileStamp is what must not change for a fact about path to hold. The
// change time and inode cannot be set back by a program, so a file
// replaced or rewritten since, whatever its new times say, has another.
func fileStamp(paths ...string) string {
	h := sha256.New()
	for _, p := range paths {
		id, ok := fileID(p)
		if !ok {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%s\x00", p, id)
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

// sealed is a cache file: its data and the MAC that shows this install
// wrote it, on this machine since it last started.
type sealed struct {
	MAC  string          `json:"mac"`
	Data json.RawMessage `json:"data"`
}

// cacheMAC binds data to the key, the machine and boot (host), the user,
// and what the file is for, so one file's data never passes for another's.
func cacheMAC(key []byte, host, purpose string, data []byte) []byte {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "kidcoder sandbox cache 1\x00%s\x00%s\x00%d\x00", purpose, host, os.Geteuid())
	m.Write(data)
	return m.Sum(nil)
}

// readSealed fills v from the cache file if this install sealed it here.
func readSealed(dir, name string, v any) bool {
	host := hostIdentity()
	if host == "" {
		return false
	}
	key, err := cacheKey(dir, false)
	if err != nil {
		return false
	}
	b, err := safefile.ReadFile(filepath.Join(dir, name), maxCacheFile)
	if err != nil {
		return false
	}
	var s sealed
	if json.Unmarshal(b, &s) != nil {
		return false
	}
	mac, err := hex.DecodeString(s.MAC)
	if err != nil || !hmac.Equal(mac, cacheMAC(key, host, name, s.Data)) {
		return false
	}
	return json.Unmarshal(s.Data, v) == nil
}

// writeSealed stores v in the cache file with this install's MAC, making
// the key on first use. Where no key can be kept nothing is written: a
// cache that would not be believed is no use.
func writeSealed(dir, name string, v any) {
	host := hostIdentity()
	if host == "" {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	key, err := cacheKey(dir, true)
	if err != nil {
		return
	}
	b, err := json.Marshal(sealed{MAC: hex.EncodeToString(cacheMAC(key, host, name, data)), Data: data})
	if err != nil {
		return
	}
	atomicfile.WriteFile(filepath.Join(dir, name), b, 0o644)
}

// UseCache loads the facts a passing self-test stored in dir, where they
// still hold. Call it before FindPython and Start; it is safe to skip.
func UseCache(dir string) {
	// Where run groups go is this process's own finding, never cached, and
	// costs a dozen round trips to the control-group file system: it is
	// found meanwhile, so the first run does not wait for it.
	go ContainmentInfo()
	factsHeld.Store(false)
	var f machineFacts
	if !readSealed(dir, factsFile, &f) {
		return
	}
	info, held := believedInfo(f)
	if held {
		seedMu.Lock()
		seededInfo = &info
		seedMu.Unlock()
	} else if _, _, cached := sandboxTool(); !cached {
		held = true // this platform caches no tool facts
	}
	for cand, pf := range f.Pythons {
		pi, ok := believedPython(cand, pf)
		if !ok {
			held = false
			continue
		}
		ent := &pythonEntry{}
		ent.once.Do(func() { ent.info = pi })
		pythonCache.LoadOrStore(cand, ent)
	}
	factsHeld.Store(held)
}

var versionRE = regexp.MustCompile(`^\d+(\.\d+)*$`)

// believedInfo is the sandbox tool's Info from f where it matches the tool
// this process would find, with who runs the sandbox found afresh.
func believedInfo(f machineFacts) (Info, bool) {
	kind, tool, ok := sandboxTool()
	info := f.Info
	if !ok || info.Kind != kind || info.Path != tool || f.Stamp == "" || machineStamp(tool) != f.Stamp ||
		!versionRE.MatchString(info.Version) || len(missingFeatures(info.Features)) > 0 {
		return Info{}, false
	}
	info.RunAsUID = hostRunAs()
	return info, true
}

// believedPython is the interpreter entry for cand from pf where cand still
// leads to the same unchanged file and every prefix is an installation
// that holds it; the folders to bind are made from those prefixes here.
func believedPython(cand string, pf pythonFacts) (pythonInfo, bool) {
	var pi pythonInfo
	if !filepath.IsAbs(cand) || filepath.Clean(cand) != cand || !versionRE.MatchString(pf.Version) || !versionAtLeast(pf.Version, 3, 8) {
		return pi, false
	}
	exe, err := filepath.EvalSymlinks(cand)
	if err != nil || exe != pf.Exe || pf.Stamp == "" || fileStamp(cand, exe) != pf.Stamp || len(pf.Prefix) == 0 {
		return pi, false
	}
	pi = pythonInfo{exe: exe, version: pf.Version}
	for _, d := range pf.Prefix {
		if !pythonPrefixOf(d, exe, pf.Version) {
			return pythonInfo{}, false
		}
		pi.prefix = append(pi.prefix, d)
		if d != "/usr" && !strings.HasPrefix(d, "/usr/") {
			pi.mounts = append(pi.mounts, d)
		}
	}
	return pi, true
}

// pythonPrefixOf reports whether d, a resolved folder other than the root,
// holds exe and the standard library of that Python version: only such a
// folder is ever bound for a cached interpreter. A prefix the probe finds
// otherwise (rare framework builds) is simply probed at every start.
func pythonPrefixOf(d, exe, version string) bool {
	if !filepath.IsAbs(d) || filepath.Clean(d) != d || d == "/" || !strings.HasPrefix(exe, d+"/") {
		return false
	}
	if r, err := filepath.EvalSymlinks(d); err != nil || r != d {
		return false
	}
	for _, lib := range []string{"lib", "lib64"} {
		if fi, err := os.Stat(filepath.Join(d, lib, "python"+version)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
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
				Prefix: ent.info.prefix, Stamp: fileStamp(cand, ent.info.exe)}
		}
		return true
	})
	writeSealed(dir, factsFile, f)
}
