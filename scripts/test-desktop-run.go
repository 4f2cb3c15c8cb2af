//go:build ignore

// test-desktop-run runs Python files in the sandbox under the limits its
// flags name and prints each outcome as one JSON line. scripts/test-desktop.sh
// builds it for its guest, where `kidcoder run` offers no memory limit of
// its own and starts a new process (and so asks systemd for a new scope)
// every run; here one process makes many runs, as the window does.
//
//	test-desktop-run [-mem-mib N] [-cpu D] [-wall D] [-procs N] [-times N] FILE.py...
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"kidcoder/sandbox"
)

func main() { os.Exit(run()) }

func run() int {
	mem := flag.Int64("mem-mib", 256, "the run's memory limit, MiB")
	cpu := flag.Duration("cpu", 30*time.Second, "CPU time limit")
	wall := flag.Duration("wall", 60*time.Second, "wall-clock limit")
	procs := flag.Int("procs", 64, "process limit")
	times := flag.Int("times", 1, "run each file this many times")
	python := flag.String("python", "/usr/bin/python3", "interpreter")
	flag.Parse()
	p := sandbox.DefaultPolicy()
	p.MemoryBytes, p.CPUTime, p.WallTime, p.MaxProcs = *mem<<20, *cpu, *wall, *procs
	enc := json.NewEncoder(os.Stdout)
	for _, f := range flag.Args() {
		host, err := filepath.Abs(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		prog := sandbox.ScratchDir + "/" + filepath.Base(f)
		for range *times {
			t0 := time.Now()
			proc, err := sandbox.Start(context.Background(), sandbox.Spec{
				Policy: p,
				Python: *python,
				Args:   []string{"-I", "-B", prog},
				Files:  []sandbox.Mount{{Host: host, Sandbox: prog}},
			}, nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, "test-desktop-run:", err)
				return 3
			}
			proc.CloseInput()
			o := proc.Wait()
			enc.Encode(map[string]any{
				"file":         filepath.Base(f),
				"status":       o.Status,
				"limit":        o.Limit,
				"run_peak_mib": o.RunMemoryPeak >> 20,
				"cpu_ms":       o.CPUTime.Milliseconds(),
				"ms":           time.Since(t0).Milliseconds(),
				"stdout":       string(o.Stdout),
				"containment":  sandbox.ContainmentInfo().Mechanism,
			})
		}
	}
	return 0
}
