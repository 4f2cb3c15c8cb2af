package sandbox

import "unicode/utf8"

// charStart is n, moved back to where the character that b[n] belongs to
// starts when the cut at n would split it (b[n] continues a UTF-8
// sequence); 0 when that character began before b.
func charStart(b []byte, n int) int {
	if n >= len(b) || utf8.RuneStart(b[n]) {
		return n
	}
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	if n < 3 {
		return 0
	}
	return n // four continuation bytes in a row: no character to keep whole
}

// wholeChars is b without a character's first bytes at its end, cut off by
// the output bound: text written so far ends on a whole character.
func wholeChars(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}
