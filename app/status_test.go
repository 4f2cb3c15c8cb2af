package app

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"

	"kidcoder/sandbox"
)

func TestLimitsInForce(t *testing.T) {
	p := sandbox.DefaultPolicy()
	_, procs := sandbox.ProcessLimits(p)
	want := SandboxLimits{
		WallSeconds: 10, IdleSeconds: 300, CPUSeconds: 10, MemoryBytes: p.MemoryBytes,
		MaxProcs: procs, FileSizeBytes: p.FileSizeBytes, ScratchBytes: p.ScratchBytes,
		ScratchFiles: p.ScratchFiles, OutputBytes: p.OutputBytes, MaxOpenFiles: p.MaxOpenFiles,
	}
	if got := limitsInForce(p); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// The settings dialog's "About the sandbox" reads these fields by name.
func TestStatusSaysHowRunsAreBounded(t *testing.T) {
	a, _, emitted := readyApp(t, "")
	requireReady(t, emitted)
	st := a.Status()
	c := st.Containment
	if !slices.Contains([]string{sandbox.MechCgroup2, sandbox.MechCgroup1, sandbox.MechRlimits}, c.Mechanism) {
		t.Fatalf("mechanism %q", c.Mechanism)
	}
	if c.Detail == "" || !slices.Contains(c.Bounds, "cpu") {
		t.Errorf("containment %+v", c)
	}
	p := sandbox.DefaultPolicy()
	if c.Mechanism == sandbox.MechRlimits {
		if _, procs := sandbox.ProcessLimits(p); st.Limits.MaxProcs != procs || procs >= p.MaxProcs || slices.Contains(c.Bounds, "memory") {
			t.Errorf("no control group, yet %+v with %d processes", c, st.Limits.MaxProcs)
		}
	} else {
		if !slices.Contains(c.Bounds, "memory") || !slices.Contains(c.Bounds, "processes") || st.Limits.MaxProcs != p.MaxProcs {
			t.Errorf("control group %+v with %d processes", c, st.Limits.MaxProcs)
		}
		// The groups are this process's, whatever verdict was kept on disk.
		if want := sandbox.ContainmentInfo().Detail; c.Detail != want || !strings.HasPrefix(path.Base(c.Detail), "kidcoder-") {
			t.Errorf("detail %q does not name this process's groups (%s)", c.Detail, want)
		}
	}
	l := st.Limits
	if l.WallSeconds != p.WallTime.Seconds() || l.IdleSeconds != p.IdleTime.Seconds() || l.CPUSeconds != p.CPUTime.Seconds() ||
		l.MemoryBytes != p.MemoryBytes || l.FileSizeBytes != p.FileSizeBytes || l.ScratchBytes != p.ScratchBytes ||
		l.ScratchFiles != p.ScratchFiles || l.OutputBytes != p.OutputBytes || l.MaxOpenFiles != p.MaxOpenFiles {
		t.Errorf("limits %+v, policy %+v", l, p)
	}
	if emitted.Containment.Mechanism != c.Mechanism || emitted.Limits != l {
		t.Errorf("the event said %+v, Status() %+v", emitted, st)
	}

	js, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Containment map[string]any `json:"containment"`
		Limits      map[string]any `json:"limits"`
	}
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mechanism", "bounds", "detail"} {
		if _, ok := got.Containment[k]; !ok {
			t.Errorf("containment has no %q: %s", k, js)
		}
	}
	for _, k := range []string{"wallSeconds", "idleSeconds", "cpuSeconds", "memoryBytes", "maxProcs", "fileSizeBytes",
		"scratchBytes", "scratchFiles", "outputBytes", "maxOpenFiles"} {
		if _, ok := got.Limits[k]; !ok {
			t.Errorf("limits have no %q: %s", k, js)
		}
	}
}

// A wrong Python path in the settings is named as the problem: installing
// Python would not help, so no install command is offered.
func TestWrongPythonPathIsNamed(t *testing.T) {
	_, _, st := readyApp(t, `{"python": "/nowhere/bin/python3"}`)
	if st.Ready || st.Code != "python_setting" || st.Fix != "" || len(st.FixOthers) != 0 {
		t.Errorf("status %+v", st)
	}
}
