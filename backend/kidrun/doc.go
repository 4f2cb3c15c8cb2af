// Package kidrun is the run engine: it owns a run from request to result (the sandbox with the Python layer, a window's runs in a Session, the one shape of results and events) with a verdict that is the host's and pictures that are checked.
package kidrun
