package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sync"
	"time"

	"kidcoder/backend/kidrun"
	"kidcoder/backend/packs"
	"kidcoder/backend/text"
	"kidcoder/sandbox"
)

// packProblem explains a pack that can't be previewed, imported or checked.
func packProblem(err error) error {
	if err == nil {
		return nil
	}
	var pe *ProblemError
	if errors.As(err, &pe) {
		return pe
	}
	key := "pack.error.unusable"
	switch {
	case errors.Is(err, packs.ErrOlderVersion):
		key = "pack.error.older_version"
	case errors.Is(err, packs.ErrNewerFormat):
		key = "pack.error.newer_format"
	case errors.Is(err, packs.ErrChecksum), errors.Is(err, packs.ErrNotZip), errors.Is(err, packs.ErrBadSignature):
		key = "pack.error.damaged"
	case errors.Is(err, packs.ErrReservedID):
		key = "pack.error.builtin_id"
	case errors.Is(err, packs.ErrOtherAuthor):
		key = "pack.error.other_author"
	case errors.Is(err, sandbox.ErrUnavailable):
		key = "pack.error.no_sandbox"
	case errors.Is(err, packs.ErrCheckBounds):
		key = "pack.error.check_bounds"
	}
	return &ProblemError{Code: "pack", Text: text.Of(key, map[string]string{"error": err.Error()})}
}

// ChoosePackFile asks for a .kidpack file; "" means cancelled.
func (a *App) ChoosePackFile() (string, error) {
	if a.shell == nil {
		return "", errors.New("no window to ask for a file")
	}
	return a.shell.OpenFileDialog("*.kidpack")
}

// PreviewPack says what importing the pack file would add to the lessons
// folder, writing nothing.
func (a *App) PreviewPack(file, lang string) (*packs.Plan, error) {
	root, err := a.packRoot()
	if err != nil {
		return nil, err
	}
	pl, err := packs.Preview(file, root, lang)
	return pl, packProblem(err)
}

// ImportPack adds the pack to the lessons folder, or updates an earlier
// import of it without touching the child's code.
func (a *App) ImportPack(file, lang string) (*packs.Plan, error) {
	root, err := a.packRoot()
	if err != nil {
		return nil, err
	}
	pl, err := packs.Import(file, root, lang)
	return pl, packProblem(err)
}

func (a *App) packRoot() (string, error) {
	lib, err := a.library()
	if err != nil {
		return "", err
	}
	return lib.Root(), nil
}

// ExerciseView is the exercise behind a lesson that came from a pack.
type ExerciseView struct {
	PackTitle    text.Text              `json:"packTitle"`
	PackFolder   string                 `json:"packFolder"`
	ID           string                 `json:"id"`
	Title        text.Text              `json:"title"`
	Instructions string                 `json:"instructions"` // Markdown in the language asked for
	Checks       int                    `json:"checks"`
	HintsTotal   int                    `json:"hintsTotal"`
	Hints        []packs.Hint           `json:"hints"` // revealed so far
	Progress     packs.ExerciseProgress `json:"progress"`
	// Steps are the pack's exercises in order, this one among them, with
	// the child's progress in each: the course map and the next exercise.
	Steps []CourseStep `json:"steps"`
}

// exerciseOf finds the pack of lesson rel; (nil, nil, nil) when it has none.
func (a *App) exerciseOf(rel string) (*packs.Installed, *packs.Exercise, string, error) {
	lib, err := a.library()
	if err != nil {
		return nil, nil, "", err
	}
	abs, err := lib.AbsPath(rel)
	if err != nil {
		return nil, nil, "", problem(err)
	}
	in, ex, err := packs.FindLesson(abs)
	if errors.Is(err, packs.ErrNotInPack) {
		return nil, nil, abs, nil
	}
	if err != nil {
		return nil, nil, abs, packProblem(err)
	}
	return in, ex, abs, nil
}

// LessonExercise returns the exercise lesson rel belongs to, or null for a
// lesson that is not from a pack.
func (a *App) LessonExercise(rel, lang string) (*ExerciseView, error) {
	in, ex, _, err := a.exerciseOf(rel)
	if err != nil || in == nil {
		return nil, err
	}
	v := &ExerciseView{
		PackTitle: in.Manifest.Title, PackFolder: filepath.Base(in.Dir), ID: ex.ID, Title: ex.Title,
		Checks: len(ex.Checks), HintsTotal: len(ex.Hints), Hints: []packs.Hint{},
	}
	v.Instructions, _ = in.Instructions(ex.ID, lang) // the NAME.md beside the lesson stands in
	if hints, err := in.ShownHints(ex.ID, lang); err == nil && hints != nil {
		v.Hints = hints
	}
	prog, err := packs.LoadProgress(in.Dir)
	if err == nil {
		v.Progress = prog[ex.ID]
	}
	v.Steps = courseSteps(in.Manifest, path.Dir(filepath.ToSlash(rel)), prog)
	return v, nil
}

// CheckRequest asks to check the child's code for a pack lesson.
type CheckRequest struct {
	Path string `json:"path"`
	Code string `json:"code"`
	Lang string `json:"lang"`
	// RunID names the check in its check:progress events and in Stop, as
	// a Run's id does (the same rules); "" for a check nothing stops.
	RunID string `json:"runId,omitempty"`
}

// CheckOutcome is the verdict on one attempt and the progress after it.
type CheckOutcome struct {
	Report   *packs.Report          `json:"report"`
	Progress packs.ExerciseProgress `json:"progress"`
	// Run is the checked program's first run (a *kidrun.Result, typed any
	// like DoneEvent's), shown as a Run's result is: output, drawing, error.
	// Absent when the checks only read the code.
	Run any `json:"run,omitempty"`
}

// firstRun remembers the first run the checks make of the child's program
// (a source check runs a program of its own).
type firstRun struct {
	packs.Runner
	code []byte
	mu   sync.Mutex
	res  *kidrun.Result
}

func (f *firstRun) Run(ctx context.Context, req packs.RunRequest) (*packs.RunResult, error) {
	res, err := f.Runner.Run(ctx, req)
	// A run the budget or Stop cut short is not what the program does.
	if err == nil && ctx.Err() == nil && res != nil && res.Result != nil && bytes.Equal(req.Code, f.code) {
		f.mu.Lock()
		if f.res == nil {
			f.res = res.Result
		}
		f.mu.Unlock()
	}
	return res, err
}

// CheckLesson runs the exercise's checks on the code, in the sandbox, and
// records the attempt. The checks' runs get one budget together
// (packs.CheckBudget), announce themselves as check:progress events, and
// Stop(req.RunID) ends them as it ends a run; a stopped check is no attempt.
func (a *App) CheckLesson(req CheckRequest) (*CheckOutcome, error) {
	if len(req.Code) > 1<<20 {
		return nil, errors.New("the program is larger than 1 MiB")
	}
	if req.RunID != "" {
		if err := kidrun.CheckRunID(req.RunID); err != nil {
			return nil, err
		}
	}
	in, _, abs, err := a.exerciseOf(req.Path)
	if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, packProblem(packs.ErrNotInPack)
	}
	a.mu.Lock()
	set := a.settings
	a.mu.Unlock()
	eng := a.runs.Engine()
	if eng == nil {
		return nil, packProblem(fmt.Errorf("%w: %s", sandbox.ErrUnavailable, a.Status().Reason))
	}
	ctx, end, err := a.checks.start(req.RunID)
	if err != nil {
		return nil, err
	}
	defer end()
	policy := a.runPolicy(set)
	runner := &firstRun{Runner: packs.EngineRunner{Engine: eng, Policy: &policy}, code: []byte(req.Code)}
	c := packs.Checker{Runner: runner, Lang: req.Lang, Progress: func(p packs.CheckProgress) {
		a.emit(EventCheckProgress, CheckProgressEvent{RunID: req.RunID, CheckProgress: p})
	}}
	rep, prog, err := c.Lesson(ctx, abs, []byte(req.Code), time.Now())
	if err != nil {
		return nil, packProblem(err)
	}
	out := &CheckOutcome{Report: rep, Progress: prog}
	if runner.res != nil {
		out.Run = runner.res
	}
	return out, nil
}

// RevealHint shows the next hint of the exercise behind lesson rel.
func (a *App) RevealHint(rel, lang string) (packs.Hint, error) {
	in, ex, _, err := a.exerciseOf(rel)
	if err != nil {
		return packs.Hint{}, err
	}
	if in == nil {
		return packs.Hint{}, packProblem(packs.ErrNotInPack)
	}
	h, err := in.RevealHint(ex.ID, lang)
	return h, packProblem(err)
}

// PackProgress lists every imported pack with the child's progress, for
// parents and teachers.
func (a *App) PackProgress() ([]packs.PackSummary, error) {
	root, err := a.packRoot()
	if err != nil {
		return nil, err
	}
	s, err := packs.Summaries(root)
	return s, packProblem(err)
}
