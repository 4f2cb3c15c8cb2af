//go:build !linux && !darwin

package sandbox

import "errors"

// Without a sandbox here nothing is cached: every value below refuses.

func cacheKey(string, bool) ([]byte, error) { return nil, errors.ErrUnsupported }

func fileID(string) (string, bool) { return "", false }

func sandboxTool() (kind, path string, ok bool) { return "", "", false }

func hostRunAs() int { return -1 }

func hostIdentity() string { return "" }
