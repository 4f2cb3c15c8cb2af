package lessons

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const childEnv = "KIDCODER_TEST_ATOMIC_CHILD"

// blockingReader yields n bytes, says so on stdout, then blocks forever:
// the writer is then mid-save, with part of the new content in its file.
type blockingReader struct {
	n      int
	told   bool
	signal io.Writer
}

func (r *blockingReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		k := min(len(p), r.n)
		for i := range p[:k] {
			p[i] = 'N'
		}
		r.n -= k
		return k, nil
	}
	if !r.told {
		r.told = true
		io.WriteString(r.signal, "writing\n")
	}
	select {} // wait to be killed
}

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		err := WriteAtomic(path, &blockingReader{n: 8 << 20, signal: os.Stdout}, 0o644)
		// Never reached: the parent kills this process mid-write.
		os.Stderr.WriteString("child finished: " + errString(err))
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestAtomicWriteSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "star.py")
	old := bytes.Repeat([]byte("print('old')\n"), 1000)
	if err := WriteFileAtomic(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAtomicWriteSurvivesKill$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "writing\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child did not start writing: %q %v", line, err)
	}
	// Proof that the kill lands mid-save: a temporary file holds new bytes.
	tmps, _ := filepath.Glob(filepath.Join(dir, ".star.py.*.tmp"))
	if len(tmps) != 1 {
		t.Fatalf("temporary files: %q", tmps)
	}
	if fi, err := os.Stat(tmps[0]); err != nil || fi.Size() == 0 {
		t.Fatalf("nothing written yet: %v", err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, old) {
		t.Fatalf("after the kill star.py holds %d bytes starting %q", len(got), got[:min(len(got), 20)])
	}
}

func TestWriteFileAtomicReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.py")
	for _, content := range []string{"one", "two, longer", ""} {
		if err := WriteFileAtomic(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Fatalf("content %q, want %q", b, content)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %d entries", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(t.TempDir(), "no", "dir.py"), nil, 0o644); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}
