package safefile

import "testing"

func TestCleanName(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "第1周 star", "第1周 star"},
		{"right-to-left override", "homework\u202Eyp.exe", "homeworkyp.exe"},
		{"every bidi control", "\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee\u2066f\u2067g\u2068h\u2069", "abcdefgh"},
		{"zero-width and marks", "a\u200Bb\u200Cc\u200Ed\u200Fe", "abcde"},
		{"byte order mark and Arabic letter mark", "\uFEFFlesson\u061C", "lesson"},
		{"soft hyphen and word joiner", "star\u00AD\u2060s", "stars"},
		{"tag characters", "flag\U000E0067\U000E0062\U000E007F", "flag"},
		{"joiner between letters", "a\u200Db", "ab"},
		{"joiner at the ends", "\u200D🐢\u200D", "🐢"},
		{"emoji sequence", "👩\u200D💻 coding", "👩\u200D💻 coding"},
		{"emoji with presentation selector", "🏳\uFE0F\u200D🌈", "🏳\uFE0F\u200D🌈"},
		{"emoji with skin tone", "👩🏽\u200D💻", "👩🏽\u200D💻"},
		{"override inside an emoji sequence", "👩\u200D\u202E💻", "👩\u200D💻"},
		{"only invisible", "\u202E\u200B", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CleanName(tt.in); got != tt.want {
				t.Errorf("CleanName(%+q) = %+q, want %+q", tt.in, got, tt.want)
			}
		})
	}
}
