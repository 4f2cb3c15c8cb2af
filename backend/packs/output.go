package packs

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

var numberRe = regexp.MustCompile(`[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?`)

// defaultNumberTolerance absorbs float printing noise (0.1+0.2) without
// accepting a wrong answer.
const defaultNumberTolerance = 1e-6

// MatchOutput reports whether a program's stdout satisfies an output check.
// All modes first turn CRLF into LF, because Windows editors and Python's
// text mode disagree about line ends and no child should fail over that.
//
//   - exact: equal, ignoring trailing newlines at the very end.
//   - whitespace: equal after every run of spaces, tabs and newlines
//     becomes one space and both ends are trimmed.
//   - contains: expect appears somewhere in the output.
//   - regex: the RE2 pattern matches somewhere (anchor it with ^ and $ and
//     (?m) for whole lines). RE2 runs in linear time, so a teacher's pattern
//     cannot make the check hang on a child's output.
//   - numbers: the numbers in the output, in order, equal those in expect
//     within tolerance (absolute; default 1e-6); other text is ignored.
func MatchOutput(mode, expect, got string, tolerance float64) bool {
	expect = strings.ReplaceAll(expect, "\r\n", "\n")
	got = strings.ReplaceAll(got, "\r\n", "\n")
	switch mode {
	case "", MatchExact:
		return strings.TrimRight(got, "\n") == strings.TrimRight(expect, "\n")
	case MatchWhitespace:
		return strings.Join(strings.Fields(got), " ") == strings.Join(strings.Fields(expect), " ")
	case MatchContains:
		return strings.Contains(got, expect)
	case MatchRegex:
		re, err := regexp.Compile(expect)
		return err == nil && re.MatchString(got)
	case MatchNumbers:
		if tolerance == 0 {
			tolerance = defaultNumberTolerance
		}
		want, have := numbers(expect), numbers(got)
		if want == nil || len(want) != len(have) {
			return false
		}
		for i := range want {
			if math.Abs(want[i]-have[i]) > tolerance || math.IsNaN(have[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func numbers(s string) []float64 {
	var out []float64
	for _, m := range numberRe.FindAllString(s, 10000) {
		f, err := strconv.ParseFloat(m, 64)
		if err != nil {
			f = math.NaN()
		}
		out = append(out, f)
	}
	return out
}
