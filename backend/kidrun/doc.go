// Package kidrun is the run engine: it runs a child's program through the sandbox with the Python layer and reports a result whose verdict is the host's and whose pictures are checked.
package kidrun
