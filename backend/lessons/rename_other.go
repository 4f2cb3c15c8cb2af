//go:build !linux

package lessons

func renameNoReplace(from, to string) error { return renameChecked(from, to) }
