package packs

import (
	"context"
	"fmt"
)

// Verification is what `pack check` found for one exercise.
type Verification struct {
	Exercise string  `json:"exercise"`
	Solution *Report `json:"solution,omitempty"` // nil when the exercise has no reference solution
	Starter  *Report `json:"starter"`
	// OK: the reference solution passes every check and the starter fails
	// at least one (otherwise the child would be done before starting).
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

// Verify is Checker{Runner: r, Lang: lang}.Verify.
func (p *Pack) Verify(ctx context.Context, r Runner, lang string) ([]Verification, error) {
	return Checker{Runner: r, Lang: lang}.Verify(ctx, p)
}

// Verify runs every exercise's reference solution and starter through its
// checks in the sandbox, each under its own budget. When ctx ends it
// returns what it found so far with ctx's error.
func (c Checker) Verify(ctx context.Context, p *Pack) ([]Verification, error) {
	files, cleanup, err := p.Materialize()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var out []Verification
	for i := range p.Manifest.Exercises {
		ex := &p.Manifest.Exercises[i]
		v := Verification{Exercise: ex.ID, OK: true}
		if ex.Solution != "" {
			v.Solution, err = c.Exercise(ctx, files, ex, p.files[ex.Solution])
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return out, err
			}
			switch {
			case v.Solution.Ended == EndedOutOfTime:
				v.OK = false
				v.Problem = fmt.Sprintf("%s: the reference solution %s ran out of the checks' time (%g s): %d check(s) did not run", ex.ID, ex.Solution, v.Solution.BudgetSeconds, len(v.Solution.NotRun()))
			case !v.Solution.Passed:
				v.OK = false
				v.Problem = fmt.Sprintf("%s: the reference solution %s fails %d check(s)", ex.ID, ex.Solution, len(v.Solution.Failed()))
			}
		}
		v.Starter, err = c.Exercise(ctx, files, ex, p.files[ex.Starter])
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if v.Starter.Passed {
			v.OK = false
			if v.Problem != "" {
				v.Problem += "; "
			}
			v.Problem += fmt.Sprintf("%s: the starter code %s already passes every check", ex.ID, ex.Starter)
		}
		out = append(out, v)
	}
	return out, nil
}
