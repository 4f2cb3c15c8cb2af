package safefile

import (
	"strings"
	"unicode"
)

// CleanName removes the invisible format characters (Unicode category Cf)
// from a name that is about to become a file or folder: the bidi controls
// U+202A–U+202E and U+2066–U+2069 (a right-to-left override makes
// "gpj.py" look like "yp.jpg"), the zero-width space, non-joiner and marks
// U+200B–U+200F, U+FEFF, U+061C, soft hyphens and tag characters. Two names
// that look the same then are the same.
//
// U+200D (zero-width joiner) is kept between two emoji, where it glues
// "👩‍💻" or "🏳️‍🌈" into one picture; anywhere else it only makes look-alike
// names, so it goes. Emoji tag sequences (the flags of Scotland or Wales)
// lose their tags and show as a plain black flag: tags can spell hidden
// text, which is worth more than those flags.
func CleanName(name string) string {
	rs := []rune(name)
	kept := rs[:0]
	for _, r := range rs {
		if r == zwj || !unicode.Is(unicode.Cf, r) {
			kept = append(kept, r)
		}
	}
	var b strings.Builder
	for i, r := range kept {
		if r == zwj && (i == 0 || i == len(kept)-1 || !emojiBefore(kept[i-1]) || !emoji(kept[i+1])) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

const zwj = '\u200d'

// emoji approximates Unicode's Extended_Pictographic, which Go's tables
// lack: pictographs are Other Symbols (So).
func emoji(r rune) bool { return unicode.Is(unicode.So, r) }

// emojiBefore also accepts what may end an emoji before a joiner: the emoji
// presentation selector U+FE0F and the skin-tone modifiers U+1F3FB–U+1F3FF.
func emojiBefore(r rune) bool {
	return emoji(r) || r == '\ufe0f' || r >= 0x1f3fb && r <= 0x1f3ff
}
