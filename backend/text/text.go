// Package text is the one catalogue of the product's Chinese and English
// texts: one type for a text in both languages, one reading of a language
// setting or locale, and the messages themselves, kept in
// python/messages.json so the Python layer reads the very same file.
package text

import (
	"os"
	"strings"
	"sync"

	"kidcoder/python"
)

// The two languages. Every text exists in both.
const (
	Zh = "zh"
	En = "en"
)

// Text is one text in both languages; JSON {"zh": ..., "en": ...} as the
// window, the pack format and the messages file spell it.
type Text struct {
	Zh string `json:"zh"`
	En string `json:"en"`
}

// In is the text in lang (a setting or locale, see Lang), or in the other
// language when that one is empty.
func (t Text) In(lang string) string {
	if Lang(lang) == Zh {
		if t.Zh != "" {
			return t.Zh
		}
		return t.En
	}
	if t.En != "" {
		return t.En
	}
	return t.Zh
}

// Lang maps a language setting or locale ("zh", "zh_CN.UTF-8", "en-GB",
// "") to Zh or En; anything not Chinese is En.
func Lang(s string) string {
	if strings.HasPrefix(strings.ToLower(s), "zh") {
		return Zh
	}
	return En
}

// System is the user's language from the locale (LC_ALL, LC_MESSAGES,
// LANG, LANGUAGE: the first one set); En when none is.
func System() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"} {
		if v := os.Getenv(k); v != "" {
			return Lang(v)
		}
	}
	return En
}

var (
	loadOnce sync.Once
	catalog  map[string]Text
)

func messages() map[string]Text {
	loadOnce.Do(func() {
		catalog = map[string]Text{}
		m, err := python.Messages()
		if err != nil {
			return // a build without the file is caught by the tests; keys then show as themselves
		}
		for k, v := range m {
			catalog[k] = Text{Zh: v[Zh], En: v[En]}
		}
	})
	return catalog
}

// Keys lists every message of the catalogue.
func Keys() []string {
	m := messages()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// Of is message key in both languages with {name} placeholders filled from
// vars; a key the catalogue lacks is its own text, so a slip shows, never panics.
func Of(key string, vars map[string]string) Text {
	t, ok := messages()[key]
	if !ok {
		t = Text{Zh: key, En: key}
	}
	for k, v := range vars {
		t.Zh = strings.ReplaceAll(t.Zh, "{"+k+"}", v)
		t.En = strings.ReplaceAll(t.En, "{"+k+"}", v)
	}
	return t
}

// Get is message key in lang, placeholders filled.
func Get(key, lang string, vars map[string]string) string {
	return Of(key, vars).In(lang)
}
