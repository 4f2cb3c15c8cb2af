//go:build !unix

package settings

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
