package text

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestLang(t *testing.T) {
	for in, want := range map[string]string{
		"zh": Zh, "zh_CN.UTF-8": Zh, "ZH-tw": Zh, "en": En, "en_GB.UTF-8": En, "": En, "C.UTF-8": En, "fr": En,
	} {
		if got := Lang(in); got != want {
			t.Errorf("Lang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSystem(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8", "LANGUAGE": ""}, "zh"},
		{map[string]string{"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8", "LANGUAGE": ""}, "en"},
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "zh_TW.UTF-8", "LANG": "C.UTF-8", "LANGUAGE": ""}, "zh"},
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "LANGUAGE": ""}, "en"},
	}
	for _, tt := range tests {
		for k, v := range tt.env {
			t.Setenv(k, v)
		}
		if got := System(); got != tt.want {
			t.Errorf("System with %v = %q, want %q", tt.env, got, tt.want)
		}
	}
}

// Every message of the one catalogue exists in both languages, with the
// same placeholders in each.
func TestEveryMessageInBothLanguages(t *testing.T) {
	keys := Keys()
	if len(keys) < 20 {
		t.Fatalf("only %d messages in the catalogue", len(keys))
	}
	slices.Sort(keys)
	ph := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, k := range keys {
		m := messages()[k]
		if m.Zh == "" || m.En == "" {
			t.Errorf("%s lacks zh or en: %+v", k, m)
			continue
		}
		zh, en := ph.FindAllString(m.Zh, -1), ph.FindAllString(m.En, -1)
		slices.Sort(zh)
		slices.Sort(en)
		if !slices.Equal(slices.Compact(zh), slices.Compact(en)) {
			t.Errorf("%s: placeholders differ: zh %v, en %v", k, zh, en)
		}
	}
}

func TestOfAndIn(t *testing.T) {
	got := Of("limit.timeout", map[string]string{"seconds": "7"})
	if got.In("zh_CN") != "⏱️ 已被叫停：运行超过 7 秒。是不是有个循环停不下来？" || got.In("en") != "⏱️ Stopped: ran longer than 7 s. Maybe a loop never ends?" {
		t.Errorf("%+v", got)
	}
	if Get("no.such.key", "zh", nil) != "no.such.key" {
		t.Error("an unknown key is its own text")
	}
	if (Text{En: "only"}).In("zh") != "only" || (Text{Zh: "仅"}).In("en") != "仅" {
		t.Error("In falls back to the other language")
	}
}

// Every key the Go code names outright, text.Get("...") or text.Of("..."),
// is in the catalogue: a missing one would show the key itself to the child.
func TestKeysNamedInGoExist(t *testing.T) {
	use := regexp.MustCompile(`\btext\.(?:Get|Of)\("([^"]+)"\s*[,)]`)
	keys := Keys()
	found := 0
	err := filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != filepath.Join("..", "..") && (d.Name() == "frontend" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range use.FindAllStringSubmatch(string(b), -1) {
			found++
			if !slices.Contains(keys, m[1]) {
				t.Errorf("%s names %q, which the catalogue lacks", p, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no text.Get or text.Of with a key found in the Go code")
	}
}

// A Chinese message holds no run of English words: Latin letters there are
// names the child meets as they are (Python, bubblewrap, print, a file name)
// or the {name} filled in, never an untranslated sentence.
func TestChineseMessagesAreChinese(t *testing.T) {
	allowed := regexp.MustCompile(`Kid Coder|Python|bubblewrap|turtle|matplotlib|print|input|import|range|int|str|len|True|False|None|for|if|while|def|else|elif|return|MiB|KiB|MB|KB|UTF-8|GBK|kidcoder|kidpack|Tab|mainloop|done|onkey|listen|\{\w+\}|"[^"]*"|'[^']*'|\S+\.(py|md|json|txt|kidpack)`)
	englishRun := regexp.MustCompile(`[A-Za-z]{2,}(?:[\s,.'’-]+[A-Za-z]{2,}){2,}`)
	for _, key := range Keys() {
		zh := Get(key, Zh, nil)
		if m := englishRun.FindString(allowed.ReplaceAllString(zh, " ")); m != "" {
			t.Errorf("%s: %q reads as English in %q", key, m, zh)
		}
	}
}
