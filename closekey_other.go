//go:build !linux

package main

// pressKey has no way, outside WebKitGTK, to put a key behind the ones on
// their way to the page: the window's first answer to closing is its last.
func pressKey(string) bool { return false }
