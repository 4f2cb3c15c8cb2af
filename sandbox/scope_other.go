//go:build !linux

package sandbox

// EnterOwnScope does nothing here: only Linux bounds runs with control
// groups that depend on where the app lives.
func EnterOwnScope() {}

// groupPlaceKey is empty here: where the app lives does not change how its
// runs are bounded.
func groupPlaceKey() string { return "" }
