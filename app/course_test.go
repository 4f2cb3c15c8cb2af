package app

import (
	"testing"

	"kidcoder/backend/course"
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
