package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// stageForNobody makes the plan's mounts reachable by the unprivileged uid
// bwrap runs under when the app runs as root: the interpreter must be
// readable as it is, and a trusted set-up run's writable folders are
// copied to a staging dir owned by that uid and copied back afterwards.
// (Every other host file reaches the sandbox as a descriptor the host
// opened.) The staging dir is 0711: the sandbox's uid can open the names
// it is given but list nothing.
func (s *sysState) stageForNobody(plan *bwrapPlan) error {
	for _, d := range plan.Python {
		if !reachableByOthers(d) {
			return &UnavailableError{
				Reason: "the Python installation at " + d + " is not readable by the sandbox's unprivileged user",
				Fix:    "use the system Python, /usr/bin/python3 (sudo apt install python3)",
			}
		}
	}
	if len(plan.Writable) == 0 {
		return nil // a child's run: nothing to stage
	}
	dir, err := os.MkdirTemp("", "kidcoder-run-")
	if err != nil {
		return fmt.Errorf("sandbox: staging dir: %w", err)
	}
	s.stage = dir
	if err := os.Chmod(dir, 0o711); err != nil {
		return err
	}
	budget := int64(maxStageBytes)
	rw := make([]Mount, len(plan.Writable))
	for i, m := range plan.Writable {
		staged := filepath.Join(dir, "w"+strconv.Itoa(i))
		if err := copyStaged(m.Host, staged, &budget); err != nil {
			return fmt.Errorf("sandbox: staging %s: %w", m.Host, err)
		}
		if err := chownTree(staged, nobody); err != nil {
			return err
		}
		s.writable = append(s.writable, writeBack{staged: staged, host: m.Host})
		rw[i] = Mount{Host: staged, Sandbox: m.Sandbox}
	}
	plan.Writable = rw
	return nil
}

func copyStaged(src, dst string, budget *int64) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return copyTree(src, dst, budget)
	}
	return copyFile(src, dst, 0o644, budget)
}

func chownTree(root string, id int) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, id, id)
	})
}

// fionread asks how many bytes wait in a pipe (FIONREAD is TIOCINQ on Linux).
const fionread = unix.TIOCINQ
