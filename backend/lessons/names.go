package lessons

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"kidcoder/backend/safefile"
	"kidcoder/backend/text"
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

// Name limits: a name the child sees ("star", a group) is at most
// MaxNameRunes characters, and a whole name on disk at most MaxNameBytes
// bytes, so that the names made from it later ("NAME（磁盘上的） 999.py",
// 22 bytes more) stay under every file system's 255.
const (
	MaxNameRunes = 70
	MaxNameBytes = 230
)

// Why a name is refused: each reason has its message, "lessons.bad_name."+reason,
// that says what to change.
const (
	NameEmpty     = "empty"     // nothing to show
	NameInvisible = "invisible" // a control or format character: a line break, a tab, a bidi override, a zero-width space
	NameChar      = "char"      // one of \ / : * ? " < > |
	NameEdge      = "edge"      // a space at either end, or a dot at the end
	NameReserved  = "reserved"  // a device name Windows keeps (CON, COM1, COM¹, CONIN$ …)
	NameHidden    = "hidden"    // a name the lessons tree never shows (see [Ignored])
	NameLong      = "long"      // past MaxNameRunes or MaxNameBytes
)

// NameError says why [CheckName] refused a name; it is the cause of the
// *Error with CodeBadName returned, and its text says what to change.
type NameError struct {
	Name   string
	Reason string // one of the Name* reasons
	Char   string // the character refused, for NameChar
}

func (e *NameError) Error() string { return "name " + strconv.Quote(e.Name) + ": " + e.Reason }

// Text is the reason in both languages, from the catalogue.
func (e *NameError) Text() text.Text {
	return text.Of("lessons.bad_name."+e.Reason, map[string]string{
		"name": e.Name, "char": e.Char, "max": strconv.Itoa(MaxNameRunes)})
}

// CheckName is the one rule for the name of a new entry of a lessons
// folder — a lesson ("star.py"), its instructions, a data file or a group —
// whoever makes it: the window, an exercise pack's import, an AI host. The
// name must work on every OS the folder may be synced to, so Windows' rules
// apply everywhere, and must be one the lessons tree shows, so nothing is
// made that the child never sees. It refuses (with a *NameError saying why):
// an empty name; control characters, line and paragraph separators and
// invisible format characters (bidi overrides, zero-width spaces: anything
// [safefile.CleanName] would take out, which keeps a joiner only inside an
// emoji); any of \ / : * ? " < > |; a space at either end or a dot at the
// end; Windows' device names with any extension (see [ReservedName]); the
// names [Ignored] hides; and a name past MaxNameRunes characters (without
// ".py") or MaxNameBytes bytes.
func CheckName(name string) error {
	if r := nameProblem(name); r != nil {
		return newErr(CodeBadName, name, r)
	}
	return nil
}

func nameProblem(name string) *NameError {
	bad := func(reason string) *NameError { return &NameError{Name: name, Reason: reason} }
	stem := strings.TrimSuffix(name, LessonExt) // what the child sees
	if stem == "" || strings.TrimSpace(name) == "" {
		return bad(NameEmpty)
	}
	if !utf8.ValidString(name) || safefile.CleanName(name) != name {
		return bad(NameInvisible)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return bad(NameInvisible)
		}
		if strings.ContainsRune(`\/:*?"<>|`, r) {
			return &NameError{Name: name, Reason: NameChar, Char: string(r)}
		}
	}
	for _, s := range []string{name, stem} {
		if strings.TrimSpace(s) != s || strings.HasSuffix(s, ".") {
			return bad(NameEdge)
		}
	}
	if utf8.RuneCountInString(stem) > MaxNameRunes || len(name) > MaxNameBytes {
		return bad(NameLong)
	}
	if ReservedName(name) {
		return bad(NameReserved)
	}
	if Ignored(name) {
		return bad(NameHidden)
	}
	return nil
}

// windowsReserved are the device names Windows refuses as file names, with
// any extension: also with the superscript digits ¹ ² ³, which Windows reads
// as digits here, and the console's CONIN$ and CONOUT$.
var windowsReserved = func() map[string]bool {
	m := map[string]bool{"con": true, "prn": true, "aux": true, "nul": true, "conin$": true, "conout$": true}
	for _, d := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"} {
		m["com"+d], m["lpt"+d] = true, true
	}
	return m
}()

// ReservedName reports whether name is one of Windows' device names (CON,
// PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, COM¹–COM³, LPT¹–LPT³, CONIN$,
// CONOUT$), in any case, alone or with an extension ("con.py", "COM1 .txt").
func ReservedName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	return windowsReserved[strings.ToLower(strings.TrimRight(base, " "))]
}

// portable reports whether name can be a file or folder name on every OS a
// lessons folder may be synced to: Windows' rules, which are the strictest.
// Unlike [CheckName] it allows hidden names and any length, for the
// metadata a [Writer] keeps.
func portable(name string) bool {
	if name == "" || !utf8.ValidString(name) || strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return false
		}
	}
	return !ReservedName(name)
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
