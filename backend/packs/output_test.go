package packs

import "testing"

func TestMatchOutput(t *testing.T) {
	tests := []struct {
		mode, expect, got string
		tol               float64
		want              bool
	}{
		{MatchExact, "9\n", "9\n", 0, true},
		{MatchExact, "9", "9\n\n", 0, true},
		{MatchExact, "a\nb\n", "a\r\nb\r\n", 0, true},
		{MatchExact, "9", " 9", 0, false},
		{MatchExact, "Hello", "hello", 0, false},
		{"", "x", "x", 0, true},
		{MatchWhitespace, "1 2  3", "1\t2\n3\n", 0, true},
		{MatchWhitespace, "1 2 3", "123", 0, false},
		{MatchContains, "Perimeter: 200", "Side? Perimeter: 200\n", 0, true},
		{MatchContains, "Perimeter: 200", "Perimeter: 201\n", 0, false},
		{MatchRegex, `(?m)^[0-9]+$`, "abc\n42\n", 0, true},
		{MatchRegex, `^[0-9]+$`, "abc\n42\n", 0, false},
		{MatchRegex, `(a+)+$`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", 0, false},
		{MatchRegex, `(`, "(", 0, false},
		{MatchNumbers, "0.3", "0.30000000000000004\n", 0, true},
		{MatchNumbers, "3.14", "pi is about 3.1416", 0.01, true},
		{MatchNumbers, "3.14", "pi is about 3.2", 0.01, false},
		{MatchNumbers, "1 2 3", "1, 2, 3", 0, true},
		{MatchNumbers, "1 2 3", "1, 2", 0, false},
		{MatchNumbers, "-5 1e3", "x=-5 y=1000.0", 0, true},
		{MatchNumbers, "", "nothing", 0, false},
		{"bogus", "a", "a", 0, false},
	}
	for _, tt := range tests {
		if got := MatchOutput(tt.mode, tt.expect, tt.got, tt.tol); got != tt.want {
			t.Errorf("MatchOutput(%q, %q, %q, %v) = %v, want %v", tt.mode, tt.expect, tt.got, tt.tol, got, tt.want)
		}
	}
}
