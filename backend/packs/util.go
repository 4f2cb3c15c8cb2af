package packs

import (
	"sort"
	"unicode/utf8"
)

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func isUTF8(b []byte) bool { return utf8.Valid(b) }
