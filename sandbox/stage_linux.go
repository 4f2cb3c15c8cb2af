package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// stageForNobody makes every host path of the plan reachable by the
// unprivileged uid bwrap runs under when the app runs as root. Files are
// always copied (they may be 0600 or under /root); other mounts only when
// they cannot be reached as they are. The staging dir is 0711: the
// sandbox's uid can open the names it is given but list nothing.
func (s *sysState) stageForNobody(plan *bwrapPlan) error {
	for _, d := range plan.Python {
		if !reachableByOthers(d) {
			return &UnavailableError{
				Reason: "the Python installation at " + d + " is not readable by the sandbox's unprivileged user",
				Fix:    "use the system Python, /usr/bin/python3 (sudo apt install python3)",
			}
		}
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
	files := make([]Mount, len(plan.Files))
	for i, m := range plan.Files {
		staged := filepath.Join(dir, "f"+strconv.Itoa(i))
		if err := copyFile(m.Host, staged, 0o644, &budget); err != nil {
			return fmt.Errorf("sandbox: staging %s: %w", m.Host, err)
		}
		files[i] = Mount{Host: staged, Sandbox: m.Sandbox}
	}
	plan.Files = files
	ro := make([]Mount, len(plan.ReadOnly))
	for i, m := range plan.ReadOnly {
		ro[i] = m
		if reachableByOthers(m.Host) {
			continue
		}
		staged := filepath.Join(dir, "r"+strconv.Itoa(i))
		if err := copyStaged(m.Host, staged, &budget); err != nil {
			return fmt.Errorf("sandbox: staging %s: %w", m.Host, err)
		}
		ro[i].Host = staged
	}
	plan.ReadOnly = ro
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
