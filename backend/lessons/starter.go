package lessons

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"
)

//go:embed starter
var starterFS embed.FS

// starterZh names the starter lessons in Chinese, by their English names
// (what they are embedded as): a folder gets every name in one language,
// never "1 star" beside "3 你好".
var starterZh = map[string]string{
	"1 star": "1 星星", "2 flower": "2 花朵", "3 hello": "3 你好",
	"4 guess": "4 猜数字", "5 snake": "5 贪吃蛇", "6 click-draw": "6 点点画画",
}

// starter is one file of the starter set: where it is embedded and the
// name it gets in the lessons folder.
type starter struct{ file, name string }

// starters are the starter lessons and their instructions named in lang
// ("zh", else English), in order.
func starters(lang string) []starter {
	entries, _ := fs.ReadDir(starterFS, "starter")
	var out []starter
	for _, e := range entries {
		name := e.Name()
		if lang == "zh" {
			ext := path.Ext(name)
			if zh, ok := starterZh[strings.TrimSuffix(name, ext)]; ok {
				name = zh + ext
			}
		}
		out = append(out, starter{e.Name(), name})
	}
	sortFunc(out, func(a, b starter) bool { return NaturalLess(a.name, b.name) })
	return out
}

// StarterLessons lists the names of the lessons (and their instructions)
// that a new lessons folder starts with in lang ("zh" or "en"), in order.
func StarterLessons(lang string) []string {
	var names []string
	for _, s := range starters(lang) {
		names = append(names, s.name)
	}
	return names
}

// starName is the starter lesson that is also the app's star demo.
const starName = "1 star.py"

// StarDemo returns the star demo program: a golden filled five-pointed star
// with dots around it and a friendly line in Chinese and English. The app's
// demo button and the starter lesson share this code.
func StarDemo() string {
	b, err := starterFS.ReadFile(path.Join("starter", starName))
	if err != nil {
		panic("lessons: star demo missing from the build: " + err.Error())
	}
	return string(b)
}

// Setup prepares the lessons folder at root on start: it creates the folder
// if needed and, the first time the folder is used, writes the starter
// lessons, named in lang (the window's language). Starters are written only
// into a folder that has no lessons or groups yet, and never over an
// existing file; once written they are not written again, so a parent who
// deletes them is not second-guessed. It also tidies up (see
// [Library.Tidy]) and returns the folder, opened.
func Setup(root, lang string) (*Library, error) {
	if err := MakeFolder(root); err != nil {
		return nil, err
	}
	l, err := NewLibrary(root)
	if err != nil {
		return nil, err
	}
	if _, err := l.WriteStarters(lang); err != nil {
		return nil, err
	}
	l.Tidy(time.Now())
	return l, nil
}

// WriteStarters writes the starter lessons, named in lang, if this folder
// never had them and holds no lessons or groups. The star is remembered as
// the lesson open, so the window opens it first whatever its name. It
// returns the paths written.
func (l *Library) WriteStarters(lang string) ([]string, error) {
	st := l.State()
	if st.StartersWritten {
		return nil, nil
	}
	tree, err := l.List()
	if err != nil {
		return nil, err
	}
	var written []string
	star := ""
	if len(tree.Children) == 0 {
		for _, s := range starters(lang) {
			b, err := starterFS.ReadFile(path.Join("starter", s.file))
			if err != nil {
				return written, err
			}
			err = createNew(filepath.Join(l.root, s.name), b, 0o644)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return written, mapFSErr(s.name, err)
			}
			written = append(written, s.name)
			if s.file == starName {
				star = s.name
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	st = l.State()
	st.StartersWritten = true
	if star != "" && st.Open == "" {
		st.Open = star
	}
	// Remembering is a convenience: starters only ever go into an empty
	// folder, so if the state cannot be written (a .kidcoder that is a link,
	// say) the folder still opens, and the next start simply checks again.
	_ = l.writeState(st)
	return written, nil
}
