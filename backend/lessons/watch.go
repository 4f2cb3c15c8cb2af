package lessons

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

const (
	// debounce lets a burst (an editor's save is three to five events, a
	// folder copy hundreds) settle into one rescan.
	debounce = 150 * time.Millisecond
	// maxDelay bounds how long a burst that never pauses can hold a rescan
	// back, so changes still show within a second.
	maxDelay = 500 * time.Millisecond
	// vanishGrace is a second look before a lesson is reported gone: vim and
	// some sync clients remove a file and write it back a moment later.
	vanishGrace = 250 * time.Millisecond
	// missingPoll is the fallback for noticing a deleted folder come back
	// when its parent can't be watched either.
	missingPoll = time.Second
)

// watcher follows the folder tree with one fsnotify watch per directory:
// watching directories, not files, is what survives editors that replace
// a file by renaming a new one over it.
type watcher struct {
	l    *Library
	em   Emitter
	fsw  *fsnotify.Watcher
	quit chan struct{}
	done chan struct{}

	// Owned by the run goroutine.
	lastKey     string
	lastLessons map[string]bool
	missing     bool
	parent      string // watched parent while the folder is missing
	poll        *time.Ticker
}

// Watch starts following the folder and reports to em: an EventChanged at
// once with the tree, then one after each change made from outside, and
// EventLessonChanged for the open lesson. It runs until Close.
func (l *Library) Watch(em Emitter) error {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	w := &watcher{l: l, em: em, fsw: fsw, quit: make(chan struct{}), done: make(chan struct{})}
	l.mu.Lock()
	if l.w != nil {
		l.mu.Unlock()
		fsw.Close()
		return errors.New("lessons: already watching")
	}
	l.w = w
	l.mu.Unlock()
	go w.run()
	return nil
}

func (w *watcher) close() error {
	close(w.quit)
	<-w.done
	return w.fsw.Close()
}

func (w *watcher) run() {
	defer close(w.done)
	defer func() {
		if w.poll != nil {
			w.poll.Stop()
		}
	}()
	timer := time.NewTimer(0) // the first scan reports the tree and sets up the watches
	pending, graceUsed := true, false
	var burstStart time.Time
	schedule := func() {
		now := time.Now()
		if !pending {
			pending, burstStart = true, now
		}
		d := debounce
		if left := maxDelay - now.Sub(burstStart); left < d {
			d = max(left, 0)
		}
		timer.Reset(d)
	}
	for {
		var pollC <-chan time.Time
		if w.poll != nil {
			pollC = w.poll.C
		}
		select {
		case <-w.quit:
			timer.Stop()
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.relevant(ev) {
				schedule()
			}
		case _, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// Usually a queue overflow: events were lost, so rescan.
			schedule()
		case <-pollC:
			schedule()
		case <-timer.C:
			pending = false
			if w.flush(graceUsed) {
				graceUsed, pending, burstStart = true, true, time.Now()
				timer.Reset(vanishGrace)
			} else {
				graceUsed = false
			}
		}
	}
}

func (w *watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	if ev.Name == w.l.root {
		return true
	}
	if w.parent != "" && filepath.Dir(ev.Name) == w.parent {
		return false
	}
	return !Ignored(filepath.Base(ev.Name))
}

// flush rescans, re-syncs the watches, and reports. It returns true to ask
// for one more look shortly, when a lesson seems to have vanished.
func (w *watcher) flush(graceUsed bool) bool {
	tree, dirs, err := w.l.scan()
	for i := 0; err == nil && i < 3 && w.reconcile(dirs); i++ {
		// New folders got watches; anything created in them before the
		// watch existed is only seen by scanning again.
		tree, dirs, err = w.l.scan()
	}
	if err != nil {
		w.setMissing(true)
		key := "problem:" + string(CodeOf(err))
		if key != w.lastKey {
			w.lastKey, w.lastLessons = key, nil
			w.em.Emit(EventChanged, ChangedEvent{Root: w.l.root, Problem: ProblemOf(err)})
		}
		return false
	}
	w.setMissing(false)
	lessons := map[string]bool{}
	collectLessons(tree, lessons)
	if !graceUsed {
		for p := range w.lastLessons {
			if !lessons[p] {
				return true
			}
		}
	}
	var added []string
	for p := range lessons {
		if !w.lastLessons[p] {
			added = append(added, p)
		}
	}
	if key := renderTree(tree); key != w.lastKey {
		w.lastKey, w.lastLessons = key, lessons
		w.em.Emit(EventChanged, ChangedEvent{Root: w.l.root, Tree: tree})
	}
	for _, ev := range w.l.checkOpen(lessons, added) {
		w.em.Emit(EventLessonChanged, ev)
	}
	return false
}

// reconcile makes the watched set equal dirs and reports whether any watch
// was added. Stale watches go first: a folder renamed elsewhere in the
// tree keeps its kernel watch under the old name, and removing that name
// must not undo the watch just added under the new one.
func (w *watcher) reconcile(dirs []string) bool {
	want := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		want[d] = true
	}
	have := map[string]bool{}
	for _, d := range w.fsw.WatchList() {
		if d == w.parent {
			continue
		}
		if !want[d] {
			_ = w.fsw.Remove(d) // already gone with its folder, as often as not
			continue
		}
		have[d] = true
	}
	added := false
	for _, d := range dirs {
		if !have[d] {
			if err := w.fsw.Add(d); err == nil {
				added = true
			}
		}
	}
	return added
}

// setMissing switches between following the tree and waiting for the
// folder to come back (a sync client or a parent may delete and recreate
// it): its parent is watched for it, or polled when that fails.
func (w *watcher) setMissing(missing bool) {
	if missing == w.missing {
		return
	}
	w.missing = missing
	if missing {
		parent := filepath.Dir(w.l.root)
		if err := w.fsw.Add(parent); err == nil {
			w.parent = parent
		}
		// Polling also covers a parent that is itself deleted and recreated.
		w.poll = time.NewTicker(missingPoll)
		return
	}
	if w.parent != "" {
		_ = w.fsw.Remove(w.parent)
		w.parent = ""
	}
	if w.poll != nil {
		w.poll.Stop()
		w.poll = nil
	}
}

func collectLessons(n *Node, into map[string]bool) {
	for _, c := range n.Children {
		if c.Kind == KindLesson {
			into[c.Path] = true
		}
		collectLessons(c, into)
	}
}

// renderTree is the tree as indented text: the watcher compares it to skip
// reports that would change nothing, and the tests compare it to scripts.
func renderTree(n *Node) string {
	var b strings.Builder
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		for _, c := range n.Children {
			b.WriteString(strings.Repeat("\t", depth))
			b.WriteString(filepath.Base(filepath.FromSlash(c.Path)))
			if c.Kind == KindGroup {
				b.WriteString("/")
			}
			if c.Instructions {
				b.WriteString(" +md")
			}
			b.WriteString("\n")
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	if b.Len() == 0 {
		return "(empty)\n"
	}
	return b.String()
}

// checkOpen compares the open lesson with the disk and decides what the
// editor should do; the caller emits the result outside the lock.
// How long and how often checkOpen waits for a file being written to settle.
const (
	settleDelay = 30 * time.Millisecond
	settleTries = 5
)

// checkOpen is given the lessons in the tree now and those added since
// the last look, where a renamed open lesson is looked for. It returns the
// events to emit, in order.
func (l *Library) checkOpen(lessons map[string]bool, added []string) []LessonChangedEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	o := l.open
	if o == nil {
		return nil
	}
	p, err := l.resolve(o.rel)
	if err != nil {
		return nil
	}
	var events []LessonChangedEvent
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) && lessons[o.rel] {
		// Gone since the scan that listed it: the change that took it is
		// still on its way, and the next look sees where it went.
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		// Gone from its name: renamed (followed, edits and all), or deleted.
		from := o.rel
		if to, np, nfi := l.movedTo(o, lessons, added); to != "" {
			o.rel, p, fi, err = to, np, nfi, nil
			o.reported = false
			events = append(events, LessonChangedEvent{
				Path: from, Kind: LessonRenamed, NewPath: to,
				Message: CodeRenamedOnDisk.Text(map[string]string{"name": strings.TrimSuffix(path.Base(to), LessonExt)}),
			})
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !o.reported {
			o.reported = true
			return []LessonChangedEvent{{Path: o.rel, Kind: LessonDeleted, Message: CodeDeletedOnDisk.Text(nil)}}
		}
		return nil
	}
	ev := l.compareOpen(o, p, fi)
	if len(events) > 0 {
		events[0].Version = o.version // the editor's base under the new name
	}
	if ev != nil {
		events = append(events, *ev)
	}
	return events
}

// movedTo finds where the open lesson went: the lesson that is the same file
// (its identity, which a rename keeps), else the one lesson added since the
// last look that holds its content (a move that copied and deleted). It
// returns its path, its file and what stat said, or "" when there is none.
func (l *Library) movedTo(o *openLesson, lessons map[string]bool, added []string) (string, string, fs.FileInfo) {
	// Every lesson until the vanishing is reported; a lesson reported gone
	// may come back under another name, among those added.
	look := added
	if !o.reported {
		look = slices.Collect(maps.Keys(lessons))
	}
	sort.Strings(look)
	if o.hasID {
		for _, rel := range look {
			p, fi, ok := l.statLesson(rel, o.rel)
			if !ok {
				continue
			}
			if id, has := fileIDOf(fi); has && id == o.id {
				return rel, p, fi
			}
		}
	}
	want, ok := parseVersion(o.version)
	if !ok {
		return "", "", nil
	}
	found, fp := "", ""
	var ffi fs.FileInfo
	for _, rel := range added {
		p, fi, ok := l.statLesson(rel, o.rel)
		if !ok || fi.Size() != want.size {
			continue
		}
		b, fi, err := readLimited(p, rel)
		if err != nil || !sameContent(makeVersion(fi, b), o.version) {
			continue
		}
		if found != "" {
			return "", "", nil // two copies: which one is the lesson is anyone's guess
		}
		found, fp, ffi = rel, p, fi
	}
	return found, fp, ffi
}

// statLesson stats lesson rel (not the open one's old name) for movedTo.
func (l *Library) statLesson(rel, old string) (string, fs.FileInfo, bool) {
	if rel == old {
		return "", nil, false
	}
	p, err := l.resolve(rel)
	if err != nil {
		return "", nil, false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", nil, false
	}
	return p, fi, true
}

// compareOpen compares the open lesson, at p on disk, with what the editor
// holds and says what the editor should do (nil: nothing).
func (l *Library) compareOpen(o *openLesson, p string, fi fs.FileInfo) *LessonChangedEvent {
	// Another file put in its place (an editor's atomic save) is read even
	// when its time and size match: both can, within one clock tick.
	if !o.reported && unchangedStat(o.version, fi) && o.sameFile(fi) {
		return nil
	}
	b, fi, err := readLimited(p, o.rel)
	if err != nil {
		return l.unreadable(o, err)
	}
	v := makeVersion(fi, b)
	// Another program may be between truncating the file and writing it
	// (os.WriteFile, many editors): act only on content that has stayed put
	// for a moment, or an empty half-write would be reloaded or set aside.
	for tries := 0; tries < settleTries; tries++ {
		time.Sleep(settleDelay)
		if now, err := os.Stat(p); err != nil || unchangedStat(v, now) {
			break
		}
		if b, fi, err = readLimited(p, o.rel); err != nil {
			return l.unreadable(o, err)
		}
		v = makeVersion(fi, b)
	}
	wasReported := o.reported
	o.reported = false
	if sameContent(v, o.version) {
		o.seen(v, fi) // touched, renamed, or put back as it was
		return nil
	}
	if !o.dirty {
		lesson, err := l.lessonFrom(o.rel, p, fi, b)
		if err != nil {
			o.reported = wasReported
			return l.unreadable(o, err)
		}
		o.seen(v, fi)
		return &LessonChangedEvent{Path: o.rel, Kind: LessonReloaded, Lesson: lesson, Version: v, Message: CodeChangedOnDisk.Text(nil)}
	}
	aside, err := l.setAside(o.rel, b)
	if err != nil {
		// Nothing is overwritten: the editor's text stays and its next
		// save will meet a conflict.
		p := ProblemOf(err)
		return &LessonChangedEvent{Path: o.rel, Kind: LessonUnreadable, Problem: p, Message: p.Text}
	}
	o.seen(v, fi)
	name := filepath.Base(filepath.FromSlash(aside))
	return &LessonChangedEvent{
		Path: o.rel, Kind: LessonKeptBoth, Version: v, AsidePath: aside,
		Message: CodeKeptBoth.Text(map[string]string{"name": name}),
	}
}

func (l *Library) unreadable(o *openLesson, err error) *LessonChangedEvent {
	if o.reported {
		return nil
	}
	o.reported = true
	p := ProblemOf(err)
	return &LessonChangedEvent{Path: o.rel, Kind: LessonUnreadable, Problem: p, Message: p.Text}
}
