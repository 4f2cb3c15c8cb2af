//go:build !linux

package main

// withoutWindowManager is false where the system always places windows.
func withoutWindowManager() bool { return false }

// webkitDefaults has nothing to choose where the window is not WebKitGTK.
func webkitDefaults() {}
