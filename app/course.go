package app

import (
	"fmt"
	"path"
	"sync"

	"kidcoder/backend/course"
	"kidcoder/backend/packs"
	"kidcoder/backend/settings"
	"kidcoder/backend/text"
)

// CourseView is one built-in pack on the course shelf.
type CourseView struct {
	Name        string    `json:"name"` // what ImportCourse takes
	Title       text.Text `json:"title"`
	Description text.Text `json:"description"`
	Exercises   int       `json:"exercises"`
	// Folder is where it was imported, relative to the lessons folder; ""
	// when it is not imported yet. Solved and Stars are the child's
	// progress there.
	Folder   string `json:"folder,omitempty"`
	Solved   int    `json:"solved"`
	Stars    int    `json:"stars"`
	MaxStars int    `json:"maxStars"`
	// Steps are its exercises in order with the child's progress in each:
	// the course map, and where Continue goes (the first not solved).
	Steps []CourseStep `json:"steps"`
}

// CourseStep is one exercise of a pack, in the pack's order, with the
// child's progress in it: a stop on the course map.
type CourseStep struct {
	ID    string    `json:"id"`
	Title text.Text `json:"title"`
	// Lesson is the exercise's lesson in the lessons folder; "" on the
	// shelf, where the course is imported (or updated) before one opens.
	Lesson string `json:"lesson,omitempty"`
	Solved bool   `json:"solved"`
	Stars  int    `json:"stars"`
}

// courseSteps are the exercises of m with their progress; lessons lie in
// folder (slash-separated, relative to the lessons folder) unless it is "".
func courseSteps(m packs.Manifest, folder string, prog map[string]packs.ExerciseProgress) []CourseStep {
	out := make([]CourseStep, 0, len(m.Exercises))
	for _, ex := range m.Exercises {
		p := prog[ex.ID]
		st := CourseStep{ID: ex.ID, Title: ex.Title, Solved: p.Solved, Stars: p.Stars}
		if folder != "" {
			st.Lesson = path.Join(folder, ex.ID+".py")
		}
		out = append(out, st)
	}
	return out
}

// CourseShelf is the built-in course as the shelf shows it.
type CourseShelf struct {
	Courses []CourseView `json:"courses"`
	// Offer is set when the shelf should open by itself: a first start, no
	// pack imported into the lessons folder, and the shelf not offered
	// before (OfferCoursesDone).
	Offer bool `json:"offer"`
}

// coursePacks are the built-in packs, built from their sources once.
var coursePacks = sync.OnceValues(func() (map[string]*packs.Pack, error) {
	out := map[string]*packs.Pack{}
	for _, name := range course.Names() {
		p, err := course.Load(name)
		if err != nil {
			return nil, fmt.Errorf("built-in pack %s: %w", name, err)
		}
		out[name] = p
	}
	return out, nil
})

// Courses lists the built-in packs with the child's progress in each.
func (a *App) Courses() (CourseShelf, error) {
	all, err := coursePacks()
	if err != nil {
		return CourseShelf{}, err
	}
	var imported []packs.PackSummary
	if root, err := a.packRoot(); err == nil {
		imported, _ = packs.Summaries(root)
	}
	shelf := CourseShelf{Courses: []CourseView{}}
	for _, name := range course.Names() {
		m := all[name].Manifest
		v := CourseView{Name: name, Title: m.Title, Description: m.Description, Exercises: len(m.Exercises), MaxStars: 3 * len(m.Exercises)}
		var prog map[string]packs.ExerciseProgress
		// The course's own import, never a stranger's pack of its id.
		if s, ok := all[name].UpdatedIn(imported); ok {
			v.Folder, prog = s.Folder, s.Progress
		}
		// Counted over the built-in exercises, which an older import may not have all of yet.
		v.Steps = courseSteps(m, "", prog)
		for _, st := range v.Steps {
			if st.Solved {
				v.Solved++
			}
			v.Stars += st.Stars
		}
		shelf.Courses = append(shelf.Courses, v)
	}
	a.mu.Lock()
	offered := a.settings.CoursesOffered
	a.mu.Unlock()
	shelf.Offer = !offered && len(imported) == 0
	return shelf, nil
}

// ImportCourse imports the named built-in pack into the lessons folder (or
// updates it there, keeping the child's code), as ImportPack does a file.
func (a *App) ImportCourse(name, lang string) (*packs.Plan, error) {
	all, err := coursePacks()
	if err != nil {
		return nil, err
	}
	p, ok := all[name]
	if !ok {
		return nil, fmt.Errorf("no built-in pack %q", name)
	}
	root, err := a.packRoot()
	if err != nil {
		return nil, err
	}
	pl, err := packs.ImportPack(p, root, lang)
	return pl, packProblem(err)
}

// OfferCoursesDone remembers that the shelf was offered, so it does not
// open by itself again.
func (a *App) OfferCoursesDone() error {
	a.mu.Lock()
	s := a.settings
	a.mu.Unlock()
	if s.CoursesOffered {
		return nil
	}
	s.CoursesOffered = true
	stored, err := settings.Save(a.settingsPath, s)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.settings.CoursesOffered = stored.CoursesOffered
	a.mu.Unlock()
	return nil
}
