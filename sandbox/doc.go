// Package sandbox runs a child's untrusted Python program inside an OS sandbox (bubblewrap on Linux, Seatbelt on macOS) and reports what the host observed.
package sandbox
