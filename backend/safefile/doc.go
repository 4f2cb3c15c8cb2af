// Package safefile is the way to read a file from a folder the app does not control, and to clean a name before it becomes a file there, so that a FIFO cannot block, a device or a growing file cannot exhaust memory, a symbolic link swapped in cannot redirect the read, and an invisible character cannot disguise a name.
package safefile
