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

// Verify runs every exercise's reference solution and starter through its
// checks in the sandbox.
func (p *Pack) Verify(ctx context.Context, r Runner, lang string) ([]Verification, error) {
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
			v.Solution, err = CheckExercise(ctx, r, files, ex, p.files[ex.Solution], lang)
			if err != nil {
				return nil, err
			}
			if !v.Solution.Passed {
				v.OK = false
				v.Problem = fmt.Sprintf("%s: the reference solution %s fails %d check(s)", ex.ID, ex.Solution, len(v.Solution.Failed()))
			}
		}
		v.Starter, err = CheckExercise(ctx, r, files, ex, p.files[ex.Starter], lang)
		if err != nil {
			return nil, err
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
