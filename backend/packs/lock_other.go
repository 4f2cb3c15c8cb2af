//go:build !unix

package packs

import "sync"

var importMu sync.Mutex

// lockFolder takes the import lock of the lessons folder dir. Here it
// orders this process's imports only: there is no flock to share with
// other processes.
func lockFolder(dir string) (unlock func(), err error) {
	importMu.Lock()
	return importMu.Unlock, nil
}
