package lessons

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitTimeout is generous for a loaded CI machine; the latency target
// itself is measured by BenchmarkWatchLatency.
const waitTimeout = 5 * time.Second

// recorder is an Emitter that keeps every event and wakes waiters.
type recorder struct {
	mu      sync.Mutex
	lists   []ChangedEvent
	lessons []LessonChangedEvent
	wake    chan struct{}
}

func newRecorder() *recorder { return &recorder{wake: make(chan struct{})} }

func (r *recorder) Emit(event string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch event {
	case EventChanged:
		r.lists = append(r.lists, data.(ChangedEvent))
	case EventLessonChanged:
		r.lessons = append(r.lessons, data.(LessonChangedEvent))
	default:
		panic("unknown event " + event)
	}
	close(r.wake)
	r.wake = make(chan struct{})
}

// waitList waits for a tree event at or after *cursor that match accepts,
// and moves the cursor past it.
func (r *recorder) waitList(cursor *int, match func(ChangedEvent) bool) (ChangedEvent, bool) {
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		for i := *cursor; i < len(r.lists); i++ {
			if match(r.lists[i]) {
				*cursor = i + 1
				r.mu.Unlock()
				return r.lists[i], true
			}
		}
		wake := r.wake
		r.mu.Unlock()
		select {
		case <-wake:
		case <-deadline.C:
			return ChangedEvent{}, false
		}
	}
}

func (r *recorder) waitLesson(cursor *int, match func(LessonChangedEvent) bool) (LessonChangedEvent, bool) {
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		// Strict: the next lesson event must be the expected one, so a
		// spurious "deleted" before a "reloaded" fails the script.
		if i := *cursor; i < len(r.lessons) {
			*cursor = i + 1
			ev := r.lessons[i]
			r.mu.Unlock()
			return ev, match(ev)
		}
		wake := r.wake
		r.mu.Unlock()
		select {
		case <-wake:
		case <-deadline.C:
			return LessonChangedEvent{}, false
		}
	}
}

func (r *recorder) lastTree() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lists) == 0 {
		return "(no event)"
	}
	ev := r.lists[len(r.lists)-1]
	if ev.Tree == nil {
		return fmt.Sprintf("(problem %v)", ev.Problem)
	}
	return renderTree(ev.Tree)
}

// splitArgs splits a script line into words; "quoted" words use Go escapes.
func splitArgs(t *testing.T, line string) []string {
	var args []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			end := 1
			for ; end < len(line); end++ {
				if line[end] == '\\' {
					end++
					continue
				}
				if line[end] == '"' {
					break
				}
			}
			s, err := strconv.Unquote(line[:end+1])
			if err != nil {
				t.Fatalf("bad quoted word in %q: %v", line, err)
			}
			args = append(args, s)
			line = line[end+1:]
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		args = append(args, word)
		line = rest
	}
	return args
}

// script runs one testdata/watch file against a real Library and watcher.
type script struct {
	t        *testing.T
	base     string // parent of every folder the script uses
	root     string
	lib      *Library
	rec      *recorder
	listCur  int
	lessCur  int
	versions map[string]string // the version the "editor" holds per lesson
	syncN    int
	since    int // first tree event of the current folder
}

func (s *script) path(name string) string {
	if name == "." {
		return s.root
	}
	return filepath.Join(s.root, filepath.FromSlash(name))
}

func (s *script) start(root string) {
	s.root = root
	lib, err := NewLibrary(root)
	if err != nil {
		// A script may start on a folder that is not there yet.
		lib = &Library{root: root}
	}
	s.lib = lib
	if err := lib.Watch(s.rec); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { s.lib.Close() })
}

func TestWatchScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/watch/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			runScript(t, f)
		})
	}
}

func runScript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	s := &script{t: t, base: base, rec: newRecorder(), versions: map[string]string{}}
	root := filepath.Join(base, "lessons")
	lines := strings.Split(string(data), "\n")
	started := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		args := splitArgs(t, line)
		where := fmt.Sprintf("%s:%d: %s", filepath.Base(file), i+1, strings.TrimSpace(line))
		// Set-up lines before "watch" build the folder as found at start.
		if args[0] == "watch" {
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			s.start(root)
			started = true
			continue
		}
		if !started && strings.HasPrefix(args[0], "expect") {
			t.Fatalf("%s: expectation before watch", where)
		}
		if args[0] == "expect-list" {
			var want []string
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
				i++
				want = append(want, lines[i][1:])
			}
			s.expectList(where, strings.Join(want, "\n")+"\n")
			continue
		}
		if !started {
			s.root = root
			os.MkdirAll(root, 0o755)
		}
		s.do(where, args)
	}
	// Whatever happened, only the folder being shown may report.
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	for _, ev := range s.rec.lists[s.since:] {
		if ev.Root != s.root {
			t.Errorf("tree event from %s while showing %s", ev.Root, s.root)
		}
	}
}

func (s *script) expectList(where, want string) {
	s.t.Helper()
	// The tree may already be as expected: the last event seen counts.
	if s.listCur > 0 {
		s.listCur--
	}
	_, ok := s.rec.waitList(&s.listCur, func(ev ChangedEvent) bool {
		return ev.Tree != nil && renderTree(ev.Tree) == want
	})
	if !ok {
		s.t.Fatalf("%s: no tree event with\n%s\nlast tree:\n%s", where, want, s.rec.lastTree())
	}
}

func (s *script) do(where string, args []string) {
	t := s.t
	t.Helper()
	need := func(n int) {
		if len(args) != n+1 {
			t.Fatalf("%s: want %d arguments", where, n)
		}
	}
	check := func(err error) {
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	switch args[0] {
	case "create":
		content := ""
		if len(args) == 3 {
			content = args[2]
		} else {
			need(1)
		}
		f, err := os.OpenFile(s.path(args[1]), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		check(err)
		_, err = f.WriteString(content)
		check(err)
		check(f.Close())
	case "write": // an in-place edit: truncate and write
		need(2)
		check(os.WriteFile(s.path(args[1]), []byte(args[2]), 0o644))
	case "write-big": // one byte over the lesson size limit
		need(1)
		check(os.WriteFile(s.path(args[1]), []byte(strings.Repeat("#", MaxLessonSize+1)), 0o644))
	case "append":
		need(2)
		f, err := os.OpenFile(s.path(args[1]), os.O_WRONLY|os.O_APPEND, 0)
		check(err)
		_, err = f.WriteString(args[2])
		check(err)
		check(f.Close())
	case "mv":
		need(2)
		to := s.path(args[2])
		if strings.HasPrefix(args[2], "@base/") {
			to = filepath.Join(s.base, args[2][len("@base/"):])
		}
		check(os.Rename(s.path(args[1]), to))
	case "rm":
		need(1)
		check(os.Remove(s.path(args[1])))
	case "mkdir":
		need(1)
		check(os.MkdirAll(s.path(args[1]), 0o755))
	case "rmdir":
		if len(args) == 3 && args[1] == "-r" {
			check(os.RemoveAll(s.path(args[2])))
		} else {
			need(1)
			check(os.Remove(s.path(args[1])))
		}
	case "symlink":
		need(2)
		target := args[1]
		if strings.HasPrefix(target, "@base/") {
			target = filepath.Join(s.base, target[len("@base/"):])
		}
		check(os.Symlink(target, s.path(args[2])))
	case "atomic-save": // gedit, VS Code and most GUI editors: temp file renamed over
		need(2)
		dst := s.path(args[1])
		tmp := filepath.Join(filepath.Dir(dst), ".goutputstream-"+strconv.Itoa(s.syncN))
		check(os.WriteFile(tmp, []byte(args[2]), 0o644))
		check(os.Rename(tmp, dst))
	case "vim-save": // vim's default on Unix: probe, back up by rename, write anew
		need(2)
		dst := s.path(args[1])
		probe := filepath.Join(filepath.Dir(dst), "4913")
		check(os.WriteFile(probe, nil, 0o644))
		check(os.Remove(probe))
		check(os.Rename(dst, dst+"~"))
		check(os.WriteFile(dst, []byte(args[2]), 0o644))
		check(os.Remove(dst + "~"))
	case "open":
		need(1)
		l, err := s.lib.Open(args[1])
		check(err)
		s.versions[args[1]] = l.Version
	case "dirty":
		need(1)
		s.lib.SetDirty(args[1], true)
	case "save":
		need(2)
		res, err := s.lib.Save(args[1], args[2], s.versions[args[1]], SaveOptions{})
		check(err)
		s.versions[args[1]] = res.Version
		s.lib.SetDirty(args[1], false)
	case "expect-event": // KIND PATH [CONTENT-or-ASIDE]
		if len(args) < 3 || len(args) > 4 {
			t.Fatalf("%s: expect-event KIND PATH [DETAIL]", where)
		}
		ev, ok := s.rec.waitLesson(&s.lessCur, func(ev LessonChangedEvent) bool {
			return ev.Kind == args[1] && ev.Path == args[2]
		})
		if !ok {
			t.Fatalf("%s: next lesson event was %+v", where, ev)
		}
		if ev.Version != "" {
			s.versions[ev.Path] = ev.Version
		}
		if ev.Kind == LessonRenamed {
			s.versions[ev.NewPath] = ev.Version
			if len(args) != 4 || ev.NewPath != args[3] {
				t.Fatalf("%s: renamed to %q", where, ev.NewPath)
			}
		}
		if len(args) == 4 {
			switch ev.Kind {
			case LessonReloaded:
				if ev.Lesson == nil || ev.Lesson.Content != args[3] {
					t.Fatalf("%s: reloaded content = %+v", where, ev.Lesson)
				}
			case LessonKeptBoth:
				if ev.AsidePath != args[3] {
					t.Fatalf("%s: aside = %q", where, ev.AsidePath)
				}
			}
		}
	case "expect-file": // NAME CONTENT: on disk now
		need(2)
		b, err := os.ReadFile(s.path(args[1]))
		check(err)
		if string(b) != args[2] {
			t.Fatalf("%s: content %q", where, b)
		}
	case "expect-missing": // NAME: not on disk
		need(1)
		if _, err := os.Lstat(s.path(args[1])); !os.IsNotExist(err) {
			t.Fatalf("%s: %s is there (%v)", where, args[1], err)
		}
	case "expect-problem":
		need(1)
		_, ok := s.rec.waitList(&s.listCur, func(ev ChangedEvent) bool {
			return ev.Problem != nil && string(ev.Problem.Code) == args[1]
		})
		if !ok {
			t.Fatalf("%s: no problem event; last tree:\n%s", where, s.rec.lastTree())
		}
	case "sync":
		// A barrier: once a marker made after everything before it shows up,
		// and its removal too, every earlier change has been processed.
		need(0)
		s.syncN++
		marker := fmt.Sprintf("zz-sync-%d.py", s.syncN)
		check(os.WriteFile(s.path(marker), nil, 0o644))
		if _, ok := s.rec.waitList(&s.listCur, func(ev ChangedEvent) bool {
			return ev.Tree != nil && strings.Contains(renderTree(ev.Tree), marker)
		}); !ok {
			t.Fatalf("%s: marker never listed", where)
		}
		check(os.Remove(s.path(marker)))
		if _, ok := s.rec.waitList(&s.listCur, func(ev ChangedEvent) bool {
			return ev.Tree != nil && !strings.Contains(renderTree(ev.Tree), marker)
		}); !ok {
			t.Fatalf("%s: marker never unlisted", where)
		}
	case "expect-no-lesson-event":
		need(0)
		s.rec.mu.Lock()
		extra := s.rec.lessons[s.lessCur:]
		s.rec.mu.Unlock()
		if len(extra) > 0 {
			t.Fatalf("%s: unexpected lesson events %+v", where, extra)
		}
	case "switch": // the app moves to another folder
		need(1)
		check(s.lib.Close())
		dir := filepath.Join(s.base, args[1])
		check(os.MkdirAll(dir, 0o755))
		s.rec.mu.Lock()
		s.listCur, s.lessCur = len(s.rec.lists), len(s.rec.lessons)
		s.since = s.listCur
		s.rec.mu.Unlock()
		s.start(dir)
	default:
		t.Fatalf("%s: unknown command", where)
	}
}
