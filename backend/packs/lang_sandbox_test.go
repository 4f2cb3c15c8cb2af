package packs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"kidcoder/backend/text"
)

// TestCodeCheckToldTheChildsLanguage: a teacher's code check, run in the
// sandbox after the child's program, knows the child's language (lang) and
// may word its message in both; the child reads it in theirs.
func TestCodeCheckToldTheChildsLanguage(t *testing.T) {
	r := realRunner(t)
	check := filepath.Join(t.TempDir(), "check_lang.py")
	src := "assert lang == 'zh', {'zh': '这里是中文：' + lang, 'en': 'the child reads English: ' + lang}\n"
	if err := os.WriteFile(check, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := &Exercise{ID: "lang", Checks: []Check{{Type: CheckCode, File: "check_lang.py", Message: text.Text{Zh: "语言", En: "language"}}}}
	for lang, want := range map[string]CheckResult{
		"zh": {Index: 0, Type: CheckCode, OK: true},
		"en": {Index: 0, Type: CheckCode, OK: false, Message: "language", Detail: "the child reads English: en"},
	} {
		rep, err := CheckExercise(context.Background(), r, mapFiles{"check_lang.py": check}, ex, []byte("print('hi')\n"), lang)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Results[0] != want {
			t.Errorf("%s: %+v, want %+v", lang, rep.Results[0], want)
		}
	}
}
