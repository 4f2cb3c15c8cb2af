package atomicfile

import "os"

// SyncDir is a no-op: Windows can't open a directory for flushing, and
// MoveFileEx, which os.Rename uses, is already durable on NTFS.
func SyncDir(dir string) error { return nil }

// SyncRoot is a no-op for the same reason as [SyncDir].
func SyncRoot(r *os.Root) error { return nil }
