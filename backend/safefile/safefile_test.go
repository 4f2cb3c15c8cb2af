package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// within fails the test if fn has not returned after a generous while: a
// blocked open or an endless read is the failure these tests look for.
func within[T any](t *testing.T, fn func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("still blocked after 10 s")
		panic("unreachable")
	}
}

func write(t *testing.T, p, s string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFilePortable(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		path    string
		max     int64
		want    string
		wantErr error
	}{
		{"normal", write(t, filepath.Join(dir, "a.txt"), "hello"), 100, "hello", nil},
		{"empty", write(t, filepath.Join(dir, "empty"), ""), 100, "", nil},
		{"exactly the bound", write(t, filepath.Join(dir, "ten"), "0123456789"), 10, "0123456789", nil},
		{"one byte over", write(t, filepath.Join(dir, "eleven"), "0123456789x"), 10, "", ErrTooLarge},
		{"directory", dir, 100, "", ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), 100, "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type res struct {
				b   []byte
				err error
			}
			r := within(t, func() res { b, err := ReadFile(tt.path, tt.max); return res{b, err} })
			if tt.wantErr != nil {
				if !errors.Is(r.err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", r.err, tt.wantErr)
				}
				return
			}
			if r.err != nil || string(r.b) != tt.want {
				t.Fatalf("got %q, %v; want %q", r.b, r.err, tt.want)
			}
		})
	}
}

func TestReadAllAndCopyStopAtTheBound(t *testing.T) {
	tests := []struct {
		in      string
		max     int64
		wantErr error
	}{
		{"", 0, nil},
		{"abc", 3, nil},
		{"abcd", 3, ErrTooLarge},
		{strings.Repeat("x", 1<<16), 1 << 10, ErrTooLarge},
	}
	for _, tt := range tests {
		b, err := ReadAll(strings.NewReader(tt.in), tt.max)
		if !errors.Is(err, tt.wantErr) || (err == nil && string(b) != tt.in) {
			t.Errorf("ReadAll(%d bytes, %d) = %d bytes, %v", len(tt.in), tt.max, len(b), err)
		}
		var out bytes.Buffer
		n, err := Copy(&out, strings.NewReader(tt.in), tt.max)
		if !errors.Is(err, tt.wantErr) || n > tt.max || int64(out.Len()) != n || (err == nil && out.String() != tt.in) {
			t.Errorf("Copy(%d bytes, %d) = %d, %v", len(tt.in), tt.max, n, err)
		}
	}
}
