//go:build !linux

package main

// withoutWindowManager is false where the system always places windows.
func withoutWindowManager() bool { return false }
