package lessons

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
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
// "lesson 10", "第2周" before "第10周", "第二周" before "第十周" and
// "第十周" before "第十一周", case ignored. ASCII and full-width digits and
// Chinese numerals all count as numbers, compared by value whatever their
// form ("第3周" before "第十周").
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

// Chinese numerals: the digits, which may start a number, and the units,
// which only go on one (十 starts one too: 十一 is 11). 万 and 亿 alone are
// words (万花筒), not numbers.
var (
	hanDigits = map[rune]uint64{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	hanUnits  = map[rune]uint64{'十': 10, '百': 100, '千': 1000, '万': 1e4, '亿': 1e8}
)

// number is a run of digits or of Chinese numerals, for comparing by value.
type number struct {
	value []byte // its value in decimal, without leading zeros
	han   bool   // written in Chinese numerals
	raw   []rune
}

// numberAt reads the number that starts at r[i], if one does, and returns
// it with the index just after it.
func numberAt(r []rune, i int) (number, int, bool) {
	if _, ok := digitValue(r[i]); ok {
		j := i
		for j < len(r) {
			if _, ok := digitValue(r[j]); !ok {
				break
			}
			j++
		}
		v := make([]byte, 0, j-i)
		for _, d := range r[i:j] {
			n, _ := digitValue(d)
			if len(v) == 0 && n == 0 {
				continue
			}
			v = append(v, byte('0'+n))
		}
		if len(v) == 0 {
			v = []byte{'0'}
		}
		return number{value: v, raw: r[i:j]}, j, true
	}
	if _, ok := hanDigits[r[i]]; !ok && r[i] != '十' {
		return number{}, i, false
	}
	j := i
	for j < len(r) {
		_, d := hanDigits[r[j]]
		_, u := hanUnits[r[j]]
		if !d && !u {
			break
		}
		j++
	}
	return number{value: hanValue(r[i:j]), han: true, raw: r[i:j]}, j, true
}

// hanValue is the value of Chinese numerals in decimal: 十一 is 11, 一百零五
// 105, 三万 30000; digits alone are read one by one, 二〇二四 is 2024.
func hanValue(r []rune) []byte {
	units := false
	for _, c := range r {
		if _, ok := hanUnits[c]; ok {
			units = true
		}
	}
	if !units {
		v := []byte{}
		for _, c := range r {
			if d := hanDigits[c]; len(v) > 0 || d != 0 {
				v = append(v, byte('0'+d))
			}
		}
		if len(v) == 0 {
			v = []byte{'0'}
		}
		return v
	}
	// yi: the part counted in 亿, wan: in 万, section: below 万, n: the last digit.
	var yi, wan, section, n uint64
	for _, c := range r {
		if d, ok := hanDigits[c]; ok {
			n = d
			continue
		}
		switch u := hanUnits[c]; u {
		case 1e8:
			yi = mulSat(addSat(yi, addSat(mulSat(wan, 1e4), section+n)), 1e8)
			wan, section, n = 0, 0, 0
		case 1e4:
			wan = addSat(wan, section+n)
			section, n = 0, 0
		default:
			section = addSat(section, max(n, 1)*u)
			n = 0
		}
	}
	return []byte(strconv.FormatUint(addSat(yi, addSat(mulSat(wan, 1e4), section+n)), 10))
}

// Past this the numbers are no longer names anyone gives: they count as
// equal, and the names compare by what follows.
const mostHan = 1 << 62

func addSat(a, b uint64) uint64 { return min(a+b, mostHan) }

func mulSat(a, b uint64) uint64 {
	if b != 0 && a > mostHan/b {
		return mostHan
	}
	return a * b
}

// compareNumbers orders numbers by value; equal values in digits before
// Chinese numerals, and digits with fewer leading zeros first ("1" before
// "01"), so that different names never compare equal by accident.
func compareNumbers(a, b number) int {
	if c := cmp.Compare(len(a.value), len(b.value)); c != 0 {
		return c
	}
	if c := bytes.Compare(a.value, b.value); c != 0 {
		return c
	}
	switch {
	case a.han != b.han && !a.han:
		return -1
	case a.han != b.han:
		return 1
	case a.han:
		return slices.Compare(a.raw, b.raw)
	}
	return cmp.Compare(len(a.raw), len(b.raw))
}

// naturalCompare walks both strings chunk by chunk: numbers compare by
// value, other runes compare case-folded. Against other runes a number
// stands where the digit 0 does, so that "第30周" < "第x周" < "第十周" cannot
// happen while 十 < 30 (a sort needs the order to be transitive).
func naturalCompare(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	i, j := 0, 0
	for i < len(ra) && j < len(rb) {
		na, ei, oka := numberAt(ra, i)
		nb, ej, okb := numberAt(rb, j)
		if oka && okb {
			if c := compareNumbers(na, nb); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		ca, cb := unicode.ToLower(ra[i]), unicode.ToLower(rb[j])
		if oka {
			ca = '0'
		}
		if okb {
			cb = '0'
		}
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		i++
		j++
	}
	return cmp.Compare(len(ra)-i, len(rb)-j)
}
