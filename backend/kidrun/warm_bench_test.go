package kidrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchWarm times hello runs that each find a warm sandbox ready, as runs
// clicked seconds apart do (the wait for the next one is not timed).
func benchWarm(b *testing.B, code string, w Warmth) {
	e := warmEngine(b, testEngine(b).Policy())
	e.KeepWarm(w)
	for b.Loop() {
		b.StopTimer()
		awaitWarm(b, e)
		b.StartTimer()
		r, err := e.Start(context.Background(), Request{Code: []byte(code)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := r.Wait(); res.Status != "ok" {
			b.Fatalf("%s: %s", res.Status, res.Stderr)
		}
	}
	if e.warm.taken.Load() == 0 {
		b.Fatal("no run took a warm sandbox")
	}
}

func BenchmarkWarmHello(b *testing.B) { benchWarm(b, "print('hello')\n", Warmth{}) }

func BenchmarkColdHello(b *testing.B) {
	e := testEngine(b)
	for b.Loop() {
		r, err := e.Start(context.Background(), Request{Code: []byte("print('hello')\n")}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
	}
}

func BenchmarkBarePythonHello(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/usr/bin/python3", "-I", "-c", "print('hello')").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// plotCode is the corpus's two-figure plot.
func plotCode(b *testing.B) string {
	code, err := os.ReadFile(filepath.Join(corpus(b), "plot.py"))
	if err != nil {
		b.Fatal(err)
	}
	return string(code)
}

func BenchmarkWarmPlot(b *testing.B) {
	benchWarm(b, plotCode(b), Warmth{Matplotlib: true})
}

func BenchmarkColdPlot(b *testing.B) {
	e := testEngine(b)
	code := []byte(plotCode(b))
	for b.Loop() {
		r, err := e.Start(context.Background(), Request{Code: code}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := r.Wait(); len(res.Images) != 2 {
			b.Fatalf("%d images: %s", len(res.Images), res.Stderr)
		}
	}
}

// BenchmarkBarePythonPlot makes the same two figures with plain python3,
// saving each as a PNG (Agg) instead of showing it.
func BenchmarkBarePythonPlot(b *testing.B) {
	dir := b.TempDir()
	code := strings.Replace(plotCode(b), "plt.show()",
		"for n in plt.get_fignums():\n    plt.figure(n).savefig('fig%d.png' % n)", 1)
	prog := filepath.Join(dir, "plot.py")
	if err := os.WriteFile(prog, []byte("import matplotlib\nmatplotlib.use('agg')\n"+code), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command("/usr/bin/python3", "-I", prog)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// BenchmarkWarmIdleMemory reports the resident memory of an idle warm
// sandbox (all its processes), without and with matplotlib loaded ahead.
func BenchmarkWarmIdleMemory(b *testing.B) {
	mib := map[string]float64{}
	for _, mpl := range []bool{false, true} {
		e := warmEngine(b, testEngine(b).Policy())
		e.KeepWarm(Warmth{Matplotlib: mpl})
		awaitWarm(b, e)
		time.Sleep(200 * time.Millisecond) // idle: nothing left of loading
		name := "MiB-idle-warm"
		if mpl {
			name = "MiB-idle-warm-matplotlib"
		}
		mib[name] = float64(e.WarmMemory()) / (1 << 20)
		e.Close()
	}
	for b.Loop() {
	}
	for name, v := range mib {
		b.ReportMetric(v, name)
	}
	b.ReportMetric(0, "ns/op")
}
