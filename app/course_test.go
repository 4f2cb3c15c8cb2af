package app

import (
	"path/filepath"
	"testing"
	"time"

	"kidcoder/backend/course"
	"kidcoder/backend/packs"
)

// The shelf lists the built-in packs; one click imports one, and its
// progress shows; the shelf opens by itself on a first start only.
func TestCourseShelf(t *testing.T) {
	a, _, _ := newTestApp(t)
	shelf, err := a.Courses()
	if err != nil {
		t.Fatal(err)
	}
	if len(shelf.Courses) != len(course.Names()) || len(shelf.Courses) < 3 {
		t.Fatalf("shelf %+v", shelf.Courses)
	}
	total := 0
	for _, c := range shelf.Courses {
		if c.Title.Zh == "" || c.Title.En == "" || c.Exercises == 0 || c.Folder != "" || c.MaxStars != 3*c.Exercises {
			t.Errorf("course %+v", c)
		}
		total += c.Exercises
	}
	if total < 25 {
		t.Errorf("%d exercises in all", total)
	}
	if !shelf.Offer {
		t.Error("a first start does not offer the course")
	}
	first := shelf.Courses[0]
	pl, err := a.ImportCourse(first.Name, "zh")
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Exercises) != first.Exercises {
		t.Errorf("imported %d exercises of %d", len(pl.Exercises), first.Exercises)
	}
	if _, err := a.OpenLesson(pl.Exercises[0].Lesson); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RevealHint(pl.Exercises[0].Lesson, "zh"); err != nil {
		t.Fatal(err)
	}
	shelf, err = a.Courses()
	if err != nil {
		t.Fatal(err)
	}
	if shelf.Courses[0].Folder != pl.Folder || shelf.Courses[1].Folder != "" {
		t.Errorf("after import: %+v", shelf.Courses)
	}
	if shelf.Offer {
		t.Error("the shelf still offers itself with a pack imported")
	}
	if _, err := a.ImportCourse("../etc", "zh"); err == nil {
		t.Error("an unknown course was imported")
	}
}

func TestCourseShelfIsOfferedOnce(t *testing.T) {
	a, _, _ := newTestApp(t)
	if s, _ := a.Courses(); !s.Offer {
		t.Fatal("not offered on a first start")
	}
	if err := a.OfferCoursesDone(); err != nil {
		t.Fatal(err)
	}
	if s, _ := a.Courses(); s.Offer {
		t.Error("offered again")
	}
	if !a.GetSettings().CoursesOffered {
		t.Error("not remembered in the settings")
	}
	// Settings saved from a copy read earlier keep it.
	old := a.GetSettings()
	old.CoursesOffered = false
	if s, err := a.SaveSettings(old); err != nil || !s.CoursesOffered {
		t.Errorf("saving older settings forgot the offer: %+v %v", s, err)
	}
}

// Every course, imported or not, lists its exercises in order with the
// child's stars in each; an exercise from it lists the same steps with
// their lessons, so the window can draw the map and go on to the next.
func TestCourseSteps(t *testing.T) {
	a, _, root := newTestApp(t)
	shelf, err := a.Courses()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range shelf.Courses {
		if len(c.Steps) != c.Exercises {
			t.Fatalf("%s: %d steps for %d exercises", c.Name, len(c.Steps), c.Exercises)
		}
		for _, st := range c.Steps {
			if st.ID == "" || st.Title.Zh == "" || st.Title.En == "" || st.Solved || st.Stars != 0 || st.Lesson != "" {
				t.Errorf("%s: step %+v", c.Name, st)
			}
		}
	}
	shapes := shelf.Courses[0]
	pl, err := a.ImportCourse(shapes.Name, "en")
	if err != nil {
		t.Fatal(err)
	}
	// The second exercise solved at the first try: three stars.
	if _, err := packs.RecordAttempt(filepath.Join(root, filepath.FromSlash(pl.Folder)), pl.Exercises[1].ID, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	shelf, err = a.Courses()
	if err != nil {
		t.Fatal(err)
	}
	got := shelf.Courses[0]
	if got.Solved != 1 || got.Stars != 3 || !got.Steps[1].Solved || got.Steps[1].Stars != 3 || got.Steps[0].Solved {
		t.Errorf("after solving the second exercise: solved %d, stars %d, steps %+v", got.Solved, got.Stars, got.Steps[:2])
	}
	for i, st := range got.Steps {
		if st.ID != pl.Exercises[i].ID {
			t.Errorf("step %d is %s, the pack's exercise %d is %s", i, st.ID, i, pl.Exercises[i].ID)
		}
	}

	ex, err := a.LessonExercise(pl.Exercises[0].Lesson, "en")
	if err != nil || ex == nil {
		t.Fatalf("exercise %v %v", ex, err)
	}
	if len(ex.Steps) != len(pl.Exercises) {
		t.Fatalf("%d steps, %d exercises", len(ex.Steps), len(pl.Exercises))
	}
	for i, st := range ex.Steps {
		if st.ID != pl.Exercises[i].ID || st.Lesson != pl.Exercises[i].Lesson || st.Title != pl.Exercises[i].Title {
			t.Errorf("step %d %+v, exercise %+v", i, st, pl.Exercises[i])
		}
		if _, err := a.OpenLesson(st.Lesson); err != nil {
			t.Errorf("step %d's lesson %q does not open: %v", i, st.Lesson, err)
		}
	}
	if !ex.Steps[1].Solved || ex.Steps[1].Stars != 3 || ex.Steps[0].Solved {
		t.Errorf("progress in the steps: %+v", ex.Steps[:2])
	}
}
