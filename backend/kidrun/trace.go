package kidrun

// Trace is the recording of a traced run (Request.Trace): the steps of the
// child's own file in the order they ran (docs/contracts.md §5). It is the
// program's own word, checked and bounded by the host, shown as text and
// never read for a verdict.
type Trace struct {
	Steps []TraceStep `json:"steps"`
	// Truncated: the program passed the step bound and ran on untraced
	// after the last step (§5's {"event": "truncated", "steps": N}).
	Truncated bool `json:"truncated"`
}

// TraceStep is one step of a Trace, as §5 writes it.
type TraceStep struct {
	I     int    `json:"i"`
	Event string `json:"event" enum:"line,call,return,exception" ts:"TraceEvent"`
	Line  int    `json:"line"`
	Func  string `json:"func"`
	// Depth is the call depth in the child's file, 0 at the top level.
	Depth int `json:"depth"`
	// Vars maps the frame's names to repr() of their values, each cut to
	// at most 80 characters.
	Vars map[string]string `json:"vars"`
	// Value is repr() of what a return step returns.
	Value *string `json:"value,omitempty"`
	// Error is the exception's type name on an exception step.
	Error *string `json:"error,omitempty"`
	// Out counts the characters (code points) of standard output written
	// before the step; Draw the drawing steps recorded before it.
	Out  int `json:"out"`
	Draw int `json:"draw"`
}
