package lessons

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// LessonExt is the extension that makes a file a lesson.
const LessonExt = ".py"

// InstructionsExt is the extension of a lesson's instructions companion.
const InstructionsExt = ".md"

const (
	trashDir = ".trash"
	stateDir = ".kidcoder"
)

// Ignored reports whether a directory entry's name is one the lessons tree
// never shows and the watcher never reacts to: hidden files (which covers
// our own .trash, .kidcoder and temporary files), editor swap and backup
// files, vim's 4913 write probe, and Windows/macOS litter.
func Ignored(name string) bool {
	if name == "" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~$") {
		return true
	}
	if strings.HasSuffix(name, "~") || name == "4913" {
		return true
	}
	lower := strings.ToLower(name)
	for _, suf := range []string{".swp", ".swx", ".swo", ".tmp", ".bak", ".part", ".crdownload"} {
		if strings.HasSuffix(lower, suf) {
			return true
		}
	}
	switch lower {
	case "thumbs.db", "desktop.ini", "__pycache__":
		return true
	}
	return false
}

func isLessonName(name string) bool {
	return strings.HasSuffix(name, LessonExt) && len(name) > len(LessonExt) && !Ignored(name)
}

// windowsReserved are device names Windows refuses as file names, with any
// extension; a lessons folder synced to a Windows machine must not hold them.
var windowsReserved = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
}

// maxNameRunes keeps names well under every file system's 255-byte limit
// even in three-byte Chinese characters.
const maxNameRunes = 80

// checkName validates a single path element typed by the user (without
// extension for lessons). Names must work on every OS the folder may be
// synced to, so Windows' rules apply everywhere.
func checkName(name string) error {
	if !portable(name) || utf8.RuneCountInString(name) > maxNameRunes || strings.TrimSpace(name) != name || Ignored(name) {
		return newErr(CodeBadName, name, nil)
	}
	return nil
}

// portable reports whether name can be a file or folder name on every OS a
// lessons folder may be synced to: Windows' rules, which are the strictest.
func portable(name string) bool {
	if name == "" || !utf8.ValidString(name) || strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r) {
			return false
		}
	}
	base, _, _ := strings.Cut(name, ".")
	return !windowsReserved[strings.ToLower(strings.TrimSpace(base))]
}

// NaturalLess orders names the way people count: "lesson 2" before
// "lesson 10", "第2周" before "第10周", case ignored. ASCII and full-width
// digits both count as numbers.
func NaturalLess(a, b string) bool {
	if c := naturalCompare(a, b); c != 0 {
		return c < 0
	}
	return a < b
}

func digitValue(r rune) (int, bool) {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0'), true
	case r >= '０' && r <= '９':
		return int(r - '０'), true
	}
	return 0, false
}

// naturalCompare walks both strings chunk by chunk: runs of digits compare
// by value (then by length, so "01" sorts after "1"), other runes compare
// case-folded.
func naturalCompare(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		_, da := digitValue(ra[i])
		_, db := digitValue(rb[j])
		if da && db {
			si, sj := i, j
			for i < len(ra) {
				if _, ok := digitValue(ra[i]); !ok {
					break
				}
				i++
			}
			for j < len(rb) {
				if _, ok := digitValue(rb[j]); !ok {
					break
				}
				j++
			}
			if c := compareDigits(ra[si:i], rb[sj:j]); c != 0 {
				return c
			}
			continue
		}
		ca, cb := unicode.ToLower(ra[i]), unicode.ToLower(rb[j])
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	switch {
	case len(ra)-i < len(rb)-j:
		return -1
	case len(ra)-i > len(rb)-j:
		return 1
	}
	return 0
}

func compareDigits(a, b []rune) int {
	trim := func(d []rune) []rune {
		for len(d) > 1 {
			if v, _ := digitValue(d[0]); v != 0 {
				break
			}
			d = d[1:]
		}
		return d
	}
	ta, tb := trim(a), trim(b)
	if len(ta) != len(tb) {
		if len(ta) < len(tb) {
			return -1
		}
		return 1
	}
	for k := range ta {
		va, _ := digitValue(ta[k])
		vb, _ := digitValue(tb[k])
		if va != vb {
			if va < vb {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}
