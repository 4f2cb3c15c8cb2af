package packs

import (
	"context"

	"kidcoder/backend/kidrun"
	"kidcoder/sandbox"
)

// EngineRunner runs checks through the real sandbox.
type EngineRunner struct {
	Engine *kidrun.Engine
	Policy *sandbox.Policy // nil: the engine's
}

// Run implements Runner. It fails only when nothing could run; the error
// then wraps sandbox.ErrUnavailable.
func (e EngineRunner) Run(ctx context.Context, req RunRequest) (*RunResult, error) {
	stdin := req.Stdin
	if stdin == nil {
		stdin = []byte{}
	}
	run, err := e.Engine.Start(ctx, kidrun.Request{
		Code: req.Code, Name: req.Name, Lang: req.Lang, Stdin: stdin,
		DataFiles: req.DataFiles, CheckFiles: req.CheckFiles, Policy: e.Policy,
		Timeline: req.Events, ReplaySteps: kidrun.MaxDrawingSteps, // the turtle checks read the steps
	}, nil)
	if err != nil {
		return nil, err
	}
	res := run.Wait()
	out := &RunResult{Status: res.Status, Stdout: res.Stdout, Drawing: res.Drawing, Result: res}
	if res.Error != nil {
		out.Hint = res.Error.Hint
		if res.Error.Line != nil {
			out.Line = *res.Error.Line
		}
	}
	for _, c := range res.Checks {
		out.Checks = append(out.Checks, CodeResult{OK: c.OK, Message: c.Message})
	}
	return out, nil
}
