//go:build tools

// Package main pins module dependencies that packages add as they grow.
package main

import (
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/wailsapp/wails/v2"
	_ "golang.org/x/net/bpf"
	_ "golang.org/x/sys/unix"
)
