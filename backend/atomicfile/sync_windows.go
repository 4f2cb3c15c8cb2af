package atomicfile

// SyncDir is a no-op: Windows can't open a directory for flushing, and
// MoveFileEx, which os.Rename uses, is already durable on NTFS.
func SyncDir(dir string) error { return nil }
