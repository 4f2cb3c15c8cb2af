package app

import (
	"kidcoder/sandbox"
)

// SandboxLimits are the bounds every run gets on this machine, for the
// settings dialog's "About the sandbox". Times are in seconds, sizes in bytes.
type SandboxLimits struct {
	// WallSeconds is the engine's wall clock, not counting time spent
	// waiting for the child to type. Runs from the window use the settings'
	// timeoutSeconds instead, which can change without a new status; they
	// are live, so it counts their busy time since they last waited
	// (docs/sandbox-limits.md, "Live runs").
	WallSeconds float64 `json:"wallSeconds"`
	// IdleSeconds is the most time, summed over a run, it may wait for
	// input; a live run (every run from the window) ends after this long
	// without a key, click, answer or typed line.
	IdleSeconds float64 `json:"idleSeconds"`
	// CPUSeconds bounds each process and the run's processes together; in a
	// live run, the run's CPU since it last waited, each process getting an hour.
	CPUSeconds float64 `json:"cpuSeconds"`
	// MemoryBytes bounds the whole run where the containment's bounds name
	// "memory", else each process.
	MemoryBytes int64 `json:"memoryBytes"`
	// MaxProcs counts processes and threads, of the run together where the
	// containment's bounds name "processes", else the per-user cap.
	MaxProcs      int   `json:"maxProcs"`
	FileSizeBytes int64 `json:"fileSizeBytes"` // largest file a program may write
	ScratchBytes  int64 `json:"scratchBytes"`  // size of the private scratch folder
	ScratchFiles  int64 `json:"scratchFiles"`  // files and folders the scratch may hold
	OutputBytes   int64 `json:"outputBytes"`   // stdout and stderr together
	MaxOpenFiles  int   `json:"maxOpenFiles"`  // per process
	// PreloadedBytes is what the warm sandbox (Python and the classroom's
	// modules, started ahead) holds in memory before a program starts; it
	// counts against MemoryBytes. 0 until measured.
	PreloadedBytes int64 `json:"preloadedBytes"`
}

// limitsInForce is what policy p amounts to on this machine: the sandbox
// says how many processes a run really gets (fewer without a control
// group, one under Seatbelt).
func limitsInForce(p sandbox.Policy) SandboxLimits {
	_, procs := sandbox.ProcessLimits(p)
	return SandboxLimits{
		WallSeconds:   p.WallTime.Seconds(),
		IdleSeconds:   p.IdleTime.Seconds(),
		CPUSeconds:    p.CPUTime.Seconds(),
		MemoryBytes:   p.MemoryBytes,
		MaxProcs:      procs,
		FileSizeBytes: p.FileSizeBytes,
		ScratchBytes:  p.ScratchBytes,
		ScratchFiles:  p.ScratchFiles,
		OutputBytes:   p.OutputBytes,
		MaxOpenFiles:  p.MaxOpenFiles,
	}
}
