package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// snapshot lists everything under dir, hidden entries included: "name/"
// for a folder, "name -> target" for a link, "name=content" for a file.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out = append(out, rel+" -> "+filepath.ToSlash(target))
		case d.IsDir():
			out = append(out, rel+"/")
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"="+string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// plantFiles makes files ("name" or "name/" for a folder) under dir.
func plantFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, "/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openTestWriter(t *testing.T, dir string) *Writer {
	t.Helper()
	w, err := OpenWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// inMeta runs fn on the metadata folder ".meta" of group "g".
func inMeta(fn func(*Writer) error) func(*Writer) error {
	return func(w *Writer) error {
		g, err := w.MakeGroup("g")
		if err != nil {
			return err
		}
		defer g.Close()
		m, err := g.MetaDir(".meta")
		if err != nil {
			return err
		}
		defer m.Close()
		return fn(m)
	}
}

func closed(w *Writer, err error) error {
	if w != nil {
		w.Close()
	}
	return err
}

var tempLeft = regexp.MustCompile(`(^|/)\.[^/]+\.[0-9]+\.tmp(/|=|$)`)

func TestWriter(t *testing.T) {
	tests := []struct {
		name     string
		before   map[string]string
		op       func(w *Writer) error
		wantCode Code
		wantPath string // the error's path, when checked
		after    []string
	}{
		{
			name:  "write a new file",
			op:    func(w *Writer) error { return w.WriteFile("a.txt", []byte("new")) },
			after: []string{"a.txt=new"},
		},
		{
			name:   "write replaces a file",
			before: map[string]string{"a.txt": "old"},
			op:     func(w *Writer) error { return w.WriteFile("a.txt", []byte("new")) },
			after:  []string{"a.txt=new"},
		},
		{
			name:   "write into a group",
			before: map[string]string{"第1周/": ""},
			op:     func(w *Writer) error { return w.WriteFile("第1周/a.md", []byte("# 1")) },
			after:  []string{"第1周/", "第1周/a.md=# 1"},
		},
		{
			name:     "write into a missing group",
			op:       func(w *Writer) error { return w.WriteFile("nope/a.txt", []byte("x")) },
			wantCode: CodeNotFound,
		},
		{
			name:     "write through a file as if it were a group",
			before:   map[string]string{"f": "x"},
			op:       func(w *Writer) error { return w.WriteFile("f/a.txt", []byte("x")) },
			wantCode: CodeNotFound,
			after:    []string{"f=x"},
		},
		{
			name:     "write over a folder",
			before:   map[string]string{"g/": ""},
			op:       func(w *Writer) error { return w.WriteFile("g", []byte("x")) },
			wantCode: CodeNotPlainFile,
			after:    []string{"g/"},
		},
		{
			name:     "write up and out",
			op:       func(w *Writer) error { return w.WriteFile("../escaped.txt", []byte("x")) },
			wantCode: CodeOutsideFolder,
		},
		{
			name:     "write out through a group",
			before:   map[string]string{"g/": ""},
			op:       func(w *Writer) error { return w.WriteFile("g/../../escaped.txt", []byte("x")) },
			wantCode: CodeOutsideFolder,
			after:    []string{"g/"},
		},
		{
			name:     "write to an absolute path",
			op:       func(w *Writer) error { return w.WriteFile("/tmp/escaped.txt", []byte("x")) },
			wantCode: CodeOutsideFolder,
		},
		{
			name:     "write to an unclean path",
			before:   map[string]string{"g/": ""},
			op:       func(w *Writer) error { return w.WriteFile("g//a.txt", []byte("x")) },
			wantCode: CodeOutsideFolder,
			after:    []string{"g/"},
		},
		{
			name:     "write with a backslash",
			op:       func(w *Writer) error { return w.WriteFile(`a\b.txt`, []byte("x")) },
			wantCode: CodeBadName,
		},
		{
			name:     "write a hidden file",
			op:       func(w *Writer) error { return w.WriteFile(".sneaky.py", []byte("x")) },
			wantCode: CodeBadName,
		},
		{
			name:     "write into the trash",
			before:   map[string]string{".trash/": ""},
			op:       func(w *Writer) error { return w.WriteFile(".trash/x.py", []byte("x")) },
			wantCode: CodeBadName,
			after:    []string{".trash/"},
		},
		{
			name:     "a new name a right-to-left override would disguise",
			op:       func(w *Writer) error { return w.WriteFile("homework \u202Egnp.py", []byte("x")) },
			wantCode: CodeBadName,
		},
		{
			name:     "a new name Windows refuses",
			op:       func(w *Writer) error { return w.WriteFile("con.txt", []byte("x")) },
			wantCode: CodeBadName,
		},
		{
			name:     "a new name ending in a dot",
			op:       func(w *Writer) error { return w.WriteFile("a.", []byte("x")) },
			wantCode: CodeBadName,
		},
		{
			name:   "an existing name is addressed as it is",
			before: map[string]string{"x\u200B.txt": "old"},
			op:     func(w *Writer) error { return w.WriteFile("x\u200B.txt", []byte("new")) },
			after:  []string{"x\u200B.txt=new"},
		},
		{
			name:  "create a new file",
			op:    func(w *Writer) error { return w.CreateFile("a.py", []byte("print(1)")) },
			after: []string{"a.py=print(1)"},
		},
		{
			name:     "create never replaces",
			before:   map[string]string{"a.py": "# the child's"},
			op:       func(w *Writer) error { return w.CreateFile("a.py", []byte("starter")) },
			wantCode: CodeExists,
			after:    []string{"a.py=# the child's"},
		},
		{
			name:     "create over a folder",
			before:   map[string]string{"a.py/": ""},
			op:       func(w *Writer) error { return w.CreateFile("a.py", []byte("starter")) },
			wantCode: CodeExists,
			after:    []string{"a.py/"},
		},
		{
			name:  "make a group",
			op:    func(w *Writer) error { return closed(w.MakeGroup("练习")) },
			after: []string{"练习/"},
		},
		{
			name:   "make a group that is there",
			before: map[string]string{"g/a.py": "x"},
			op:     func(w *Writer) error { return closed(w.MakeGroup("g")) },
			after:  []string{"g/", "g/a.py=x"},
		},
		{
			name:     "make a group where a file is",
			before:   map[string]string{"g": "x"},
			op:       func(w *Writer) error { return closed(w.MakeGroup("g")) },
			wantCode: CodeExists,
			after:    []string{"g=x"},
		},
		{
			name:     "make a hidden group",
			op:       func(w *Writer) error { return closed(w.MakeGroup(".g")) },
			wantCode: CodeBadName,
		},
		{
			name: "a group's Writer writes inside it",
			op: func(w *Writer) error {
				g, err := w.MakeGroup("g")
				if err != nil {
					return err
				}
				defer g.Close()
				return g.WriteFile("a.md", []byte("# a"))
			},
			after: []string{"g/", "g/a.md=# a"},
		},
		{
			name:  "metadata",
			op:    inMeta(func(m *Writer) error { return m.WriteFile("progress.json", []byte("{}")) }),
			after: []string{"g/", "g/.meta/", "g/.meta/progress.json={}"},
		},
		{
			name:     "metadata folder not hidden",
			op:       func(w *Writer) error { return closed(w.MetaDir("meta")) },
			wantCode: CodeBadName,
		},
		{
			name:     "metadata in the trash's name",
			op:       func(w *Writer) error { return closed(w.MetaDir(".trash")) },
			wantCode: CodeBadName,
		},
		{
			name:     "metadata in the state folder's name",
			op:       func(w *Writer) error { return closed(w.MetaDir(".KidCoder")) },
			wantCode: CodeBadName,
		},
		{
			name:     "metadata folder that is the folder itself",
			op:       func(w *Writer) error { return closed(w.MetaDir(".")) },
			wantCode: CodeBadName,
		},
		{
			name:     "metadata folder above",
			op:       func(w *Writer) error { return closed(w.MetaDir("..")) },
			wantCode: CodeBadName,
		},
		{
			name:     "metadata folder with a path",
			before:   map[string]string{"g/": ""},
			op:       func(w *Writer) error { return closed(w.MetaDir("g/.meta")) },
			wantCode: CodeBadName,
			after:    []string{"g/"},
		},
		{
			name:     "errors name the path from the folder opened",
			before:   map[string]string{"g/.meta/x/": ""},
			op:       inMeta(func(m *Writer) error { return m.WriteFile("x", []byte("{}")) }),
			wantCode: CodeNotPlainFile,
			wantPath: "g/.meta/x",
			after:    []string{"g/", "g/.meta/", "g/.meta/x/"},
		},
		{
			name: "replace a folder that is missing",
			op: inMeta(func(m *Writer) error {
				return m.ReplaceFolder("files", map[string][]byte{"ex/check.py": []byte("c"), "a.txt": []byte("a")})
			}),
			after: []string{"g/", "g/.meta/", "g/.meta/files/", "g/.meta/files/a.txt=a", "g/.meta/files/ex/", "g/.meta/files/ex/check.py=c"},
		},
		{
			name:   "replace a folder's files",
			before: map[string]string{"g/.meta/files/old/gone.py": "old", "g/.meta/files/a.txt": "old"},
			op: inMeta(func(m *Writer) error {
				return m.ReplaceFolder("files", map[string][]byte{"a.txt": []byte("new")})
			}),
			after: []string{"g/", "g/.meta/", "g/.meta/files/", "g/.meta/files/a.txt=new"},
		},
		{
			name:   "replace a folder with one file escaping",
			before: map[string]string{"g/.meta/files/a.txt": "old"},
			op: inMeta(func(m *Writer) error {
				return m.ReplaceFolder("files", map[string][]byte{"a.txt": []byte("new"), "../../x.py": []byte("x")})
			}),
			wantCode: CodeOutsideFolder,
			after:    []string{"g/", "g/.meta/", "g/.meta/files/", "g/.meta/files/a.txt=old"},
		},
		{
			name:   "replace a folder with a hidden file",
			before: map[string]string{"g/.meta/files/a.txt": "old"},
			op: inMeta(func(m *Writer) error {
				return m.ReplaceFolder("files", map[string][]byte{"ex/.hidden": []byte("x")})
			}),
			wantCode: CodeBadName,
			after:    []string{"g/", "g/.meta/", "g/.meta/files/", "g/.meta/files/a.txt=old"},
		},
		{
			name:   "replace a file with a folder",
			before: map[string]string{"files": "x"},
			op:     func(w *Writer) error { return w.ReplaceFolder("files", map[string][]byte{"a": []byte("a")}) },
			after:  []string{"files/", "files/a=a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "lessons")
			plantFiles(t, dir, tt.before)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			err := tt.op(openTestWriter(t, dir))
			if got := CodeOf(err); got != tt.wantCode {
				t.Fatalf("error %v (code %q), want code %q", err, got, tt.wantCode)
			}
			var e *Error
			if tt.wantPath != "" && (!errors.As(err, &e) || e.Path != tt.wantPath) {
				t.Errorf("error %v, want it to name %q", err, tt.wantPath)
			}
			got := snapshot(t, dir)
			if tt.after == nil {
				tt.after = snapshot(t, t.TempDir())
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.after) {
				t.Errorf("folder holds\n  %q\nwant\n  %q", got, tt.after)
			}
			if outside := snapshot(t, base); len(outside) != len(got)+1 {
				t.Errorf("something was written beside the folder: %q", outside)
			}
		})
	}
}

// TestWriterRefusesLinks: a link planted in the lessons folder never
// redirects a write, whether it leads out of the folder or stays inside.
func TestWriterRefusesLinks(t *testing.T) {
	tests := []struct {
		name     string
		link     string // planted at this path in the folder...
		to       string // ...pointing here: "out" is a folder beside it, "in" one inside
		op       func(w *Writer) error
		wantCode Code
		after    []string // the folder, links included
	}{
		{
			name: "group leading out", link: "g", to: "out",
			op:       func(w *Writer) error { return w.WriteFile("g/a.txt", []byte("x")) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "group leading inside", link: "g", to: "in",
			op:       func(w *Writer) error { return w.WriteFile("g/a.txt", []byte("x")) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "create through a group link", link: "g", to: "in",
			op:       func(w *Writer) error { return w.CreateFile("g/a.py", []byte("x")) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "make a group that is a link", link: "g", to: "out",
			op:       func(w *Writer) error { return closed(w.MakeGroup("g")) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "metadata folder that is a link", link: ".meta", to: "out",
			op:       func(w *Writer) error { return closed(w.MetaDir(".meta")) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "replace a folder that is a link", link: "files", to: "out",
			op:       func(w *Writer) error { return w.ReplaceFolder("files", map[string][]byte{"a": []byte("x")}) },
			wantCode: CodeNotPlainFile,
		},
		{
			name: "write replaces a link, not what it leads to", link: "a.txt", to: "out/secret.txt",
			op:    func(w *Writer) error { return w.WriteFile("a.txt", []byte("x")) },
			after: []string{"a.txt=x", "in/", "in/secret.txt=inside"},
		},
		{
			name: "write replaces a link inside, not what it leads to", link: "a.txt", to: "in/secret.txt",
			op:    func(w *Writer) error { return w.WriteFile("a.txt", []byte("x")) },
			after: []string{"a.txt=x", "in/", "in/secret.txt=inside"},
		},
		{
			name: "create refuses even a dangling link", link: "a.py", to: "out/nothing.py",
			op:       func(w *Writer) error { return w.CreateFile("a.py", []byte("x")) },
			wantCode: CodeExists,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "lessons")
			plantFiles(t, base, map[string]string{"out/secret.txt": "outside", "lessons/in/secret.txt": "inside"})
			target := filepath.Join(base, filepath.FromSlash(tt.to))
			if strings.HasPrefix(tt.to, "in") {
				// Relative, as a link made inside the folder would be:
				// os.Root alone refuses an absolute one.
				target = filepath.FromSlash(tt.to)
			}
			if err := os.Symlink(target, filepath.Join(dir, tt.link)); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			before := snapshot(t, dir)
			err := tt.op(openTestWriter(t, dir))
			if got := CodeOf(err); got != tt.wantCode {
				t.Fatalf("error %v (code %q), want code %q", err, got, tt.wantCode)
			}
			want := before
			if tt.after != nil {
				want = tt.after
			}
			if got := snapshot(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("folder holds\n  %q\nwant\n  %q", got, want)
			}
			if got := snapshot(t, filepath.Join(base, "out")); fmt.Sprint(got) != `[secret.txt=outside]` {
				t.Errorf("the folder outside holds %q", got)
			}
		})
	}
}

// TestWriterLinkSwappedIn: a group replaced by a link after the Writer was
// opened on the lessons folder is still refused.
func TestWriterLinkSwappedIn(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "lessons")
	plantFiles(t, base, map[string]string{"lessons/g/": "", "out/": ""})
	w := openTestWriter(t, dir)
	if err := os.Remove(filepath.Join(dir, "g")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "out"), filepath.Join(dir, "g")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := w.WriteFile("g/a.txt", []byte("x")); !errors.Is(err, ErrNotPlainFile) {
		t.Fatalf("write through the swapped-in link: %v, want ErrNotPlainFile", err)
	}
	if got := snapshot(t, filepath.Join(base, "out")); len(got) != 0 {
		t.Errorf("written outside: %q", got)
	}
}

// TestWriterFollowsMovedFolder: a Writer holds its folder, so a group moved
// (renamed by the child) while it is written to still gets every file.
func TestWriterFollowsMovedFolder(t *testing.T) {
	dir := t.TempDir()
	w := openTestWriter(t, dir)
	g, err := w.MakeGroup("pack")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := os.Rename(filepath.Join(dir, "pack"), filepath.Join(dir, "renamed")); err != nil {
		t.Fatal(err)
	}
	if err := g.WriteFile("a.md", []byte("# a")); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(snapshot(t, dir)); got != "[renamed/ renamed/a.md=# a]" {
		t.Errorf("folder holds %s", got)
	}
}

// TestWriterModes: files get exactly the folder's file mode, whatever the
// umask, as WriteFileAtomic's do.
func TestWriterModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := t.TempDir()
	w := openTestWriter(t, dir)
	if err := w.WriteFile("a.txt", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.CreateFile("b.py", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.ReplaceFolder("files", map[string][]byte{"c/d.py": nil}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "b.py", "files/c/d.py"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v", name, fi.Mode().Perm())
		}
	}
}

// TestWriterWriteFileIsAtomic: a reader never sees a half-written file,
// only the old content or the new.
func TestWriterWriteFileIsAtomic(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses to replace a file a reader holds open")
	}
	dir := t.TempDir()
	w := openTestWriter(t, dir)
	const size = 256 << 10
	versions := [][]byte{bytes.Repeat([]byte("a"), size), bytes.Repeat([]byte("b"), size)}
	if err := w.WriteFile("data.txt", versions[0]); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var torn []string
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := os.ReadFile(filepath.Join(dir, "data.txt"))
			if err != nil {
				torn = append(torn, err.Error())
				continue
			}
			if !bytes.Equal(b, versions[0]) && !bytes.Equal(b, versions[1]) {
				torn = append(torn, fmt.Sprintf("%d bytes starting %q", len(b), b[:min(len(b), 8)]))
			}
		}
	})
	for i := range 100 {
		if err := w.WriteFile("data.txt", versions[i%2]); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	if len(torn) > 0 {
		t.Fatalf("%d torn reads, first: %s", len(torn), torn[0])
	}
	if left := snapshot(t, dir); len(left) != 1 {
		t.Errorf("temporary files left: %d entries", len(left))
	}
}

// TestWriterReplaceFolderIsWhole: a reader holding the folder open sees
// files of one set only, never some old and some new. (An old set may be
// seen shrinking: it is removed once the new one is in place.)
func TestWriterReplaceFolderIsWhole(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not rename a folder that a reader holds open")
	}
	dir := t.TempDir()
	w := openTestWriter(t, dir)
	sets := []map[string][]byte{
		{"a.txt": []byte("1"), "x/b.txt": []byte("1"), "x/c.txt": []byte("1")},
		{"a.txt": []byte("2"), "x/b.txt": []byte("2"), "y/d.txt": []byte("2")},
	}
	if err := w.ReplaceFolder("files", sets[0]); err != nil {
		t.Fatal(err)
	}
	var whole [2]map[string]bool
	for i, s := range sets {
		whole[i] = map[string]bool{}
		for _, e := range snapshotOf(t, s) {
			whole[i][e] = true
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mixed []string
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			got := readTreeHeld(filepath.Join(dir, "files"))
			if !subsetOf(got, whole[0]) && !subsetOf(got, whole[1]) {
				mixed = append(mixed, fmt.Sprint(got))
			}
		}
	})
	for i := range 100 {
		if err := w.ReplaceFolder("files", sets[(i+1)%2]); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	if len(mixed) > 0 {
		t.Fatalf("%d mixed reads, first: %s", len(mixed), mixed[0])
	}
	if left := snapshot(t, dir); tempLeft.MatchString(strings.Join(left, "\n")) {
		t.Errorf("temporary entries left: %q", left)
	}
}

// TestWriterReplaceFolderFailsWhole: a replacement that fails half-way
// leaves the old folder exactly as it was, and nothing staged behind.
func TestWriterReplaceFolderFailsWhole(t *testing.T) {
	dir := t.TempDir()
	plantFiles(t, dir, map[string]string{"files/a": "old", "files/z/b": "old"})
	before := snapshot(t, dir)
	w := openTestWriter(t, dir)
	// "a" is written as a file first, then can't be the folder "a/b" needs.
	err := w.ReplaceFolder("files", map[string][]byte{"a": []byte("new"), "a/b": []byte("new")})
	if !errors.Is(err, ErrExists) {
		t.Fatalf("ReplaceFolder = %v, want ErrExists", err)
	}
	if got := snapshot(t, dir); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("after a failed replacement the folder holds\n  %q\nwant\n  %q", got, before)
	}
}

// snapshotOf is what snapshot would say of a folder holding files.
func snapshotOf(t *testing.T, files map[string][]byte) []string {
	dir := t.TempDir()
	for name, b := range files {
		plantFiles(t, dir, map[string]string{name: string(b)})
	}
	return snapshot(t, dir)
}

// readTreeHeld is snapshot through one open handle on dir, so that every
// entry comes from the same folder even if another is renamed into its
// place meanwhile. Entries that vanish while it reads are left out; a
// folder that is not there reads as empty.
func readTreeHeld(dir string) []string {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	var out []string
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return nil
		}
		if d.IsDir() {
			out = append(out, p+"/")
			return nil
		}
		if b, err := root.ReadFile(p); err == nil {
			out = append(out, p+"="+string(b))
		}
		return nil
	})
	return out
}

func subsetOf(entries []string, set map[string]bool) bool {
	for _, e := range entries {
		if !set[e] {
			return false
		}
	}
	return true
}

func TestMakeFolder(t *testing.T) {
	base := t.TempDir()
	if err := MakeFolder(filepath.Join(base, "a", "Kid Coder")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(base, "a", "Kid Coder")); err != nil || !fi.IsDir() {
		t.Fatalf("folder not made: %v", err)
	}
	plantFiles(t, base, map[string]string{"file": "x"})
	if err := MakeFolder(filepath.Join(base, "file", "Kid Coder")); !errors.Is(err, ErrFolderMissing) {
		t.Errorf("under a file: %v, want ErrFolderMissing", err)
	}
	if _, err := OpenWriter(filepath.Join(base, "gone")); !errors.Is(err, ErrFolderMissing) {
		t.Errorf("OpenWriter on a missing folder: %v, want ErrFolderMissing", err)
	}
}
