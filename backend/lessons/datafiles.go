package lessons

import (
	"os"
	"path/filepath"
	"strings"
)

// Bounds on what a program gets beside it, so a lesson saved in a big
// folder (Downloads, say) doesn't copy gigabytes into every run.
const (
	MaxDataFiles     = 32
	MaxDataFileBytes = 8 << 20
	MaxDataBytes     = 32 << 20
)

// DataFiles lists the files a lesson's program may read by relative path
// ("words.txt"): the regular, non-hidden files in the lesson's folder that
// are not lessons or their instructions. Symbolic links are left out, so
// nothing outside the folder is ever handed to the sandbox. The result is
// absolute paths in natural order, at most MaxDataFiles files of at most
// MaxDataFileBytes each and MaxDataBytes in all.
func DataFiles(lessonPath string) []string {
	dir := filepath.Dir(lessonPath)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	lessonsHere := map[string]bool{}
	for _, e := range entries {
		if isLessonName(e.Name()) {
			lessonsHere[strings.TrimSuffix(e.Name(), LessonExt)] = true
		}
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if Ignored(name) || !e.Type().IsRegular() || isLessonName(name) {
			continue
		}
		if strings.HasSuffix(name, InstructionsExt) && lessonsHere[strings.TrimSuffix(name, InstructionsExt)] {
			continue
		}
		names = append(names, name)
	}
	sortFunc(names, NaturalLess)
	var out []string
	var total int64
	for _, name := range names {
		if len(out) == MaxDataFiles {
			break
		}
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxDataFileBytes || total+fi.Size() > MaxDataBytes {
			continue
		}
		total += fi.Size()
		out = append(out, filepath.Join(dir, name))
	}
	return out
}

// LessonDataFiles is [DataFiles] for a lesson of this folder, by its
// relative path; the runner copies these beside the program in the sandbox.
func (l *Library) LessonDataFiles(rel string) ([]string, error) {
	if !isLessonPath(rel) {
		return nil, newErr(CodeNotLesson, rel, nil)
	}
	dir, err := l.resolveNoFollow(rel)
	if err != nil {
		return nil, err
	}
	return DataFiles(dir), nil
}

// AbsPath returns where rel is on disk, following links only while they
// stay inside the folder.
func (l *Library) AbsPath(rel string) (string, error) { return l.resolve(rel) }
