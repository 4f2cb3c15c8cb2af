package lessons

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// A version token names one state of a file on disk:
// "<mtime ns>-<size>-<sha256 prefix>". The mtime and size let the watcher
// skip hashing when nothing moved; only the hash decides whether content
// changed, so a touched or re-saved identical file is not a conflict.
func makeVersion(fi fs.FileInfo, data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%d-%d-%s", fi.ModTime().UnixNano(), len(data), hex.EncodeToString(sum[:12]))
}

type versionParts struct {
	mtime, size int64
	hash        string
}

func parseVersion(v string) (versionParts, bool) {
	f := strings.Split(v, "-")
	if len(f) != 3 {
		return versionParts{}, false
	}
	m, err1 := strconv.ParseInt(f[0], 10, 64)
	s, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || f[2] == "" {
		return versionParts{}, false
	}
	return versionParts{m, s, f[2]}, true
}

func sameContent(a, b string) bool {
	pa, ok1 := parseVersion(a)
	pb, ok2 := parseVersion(b)
	return ok1 && ok2 && pa.hash == pb.hash && pa.size == pb.size
}

// unchangedStat reports whether fi still matches v's mtime and size, in which
// case the content is taken as unchanged without reading it.
func unchangedStat(v string, fi fs.FileInfo) bool {
	p, ok := parseVersion(v)
	return ok && p.mtime == fi.ModTime().UnixNano() && p.size == fi.Size()
}
