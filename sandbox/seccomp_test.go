package sandbox

import (
	"syscall"
	"testing"

	"golang.org/x/net/bpf"
)

// Every System V IPC call is refused on every architecture with a table:
// one missing number would leave a queue or semaphore set to fill.
func TestSeccompRefusesSysVIPC(t *testing.T) {
	ipc := []string{"shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semctl", "semtimedop"}
	for goarch, a := range seccompArches {
		prog, err := seccompProgram(goarch)
		if err != nil {
			t.Fatal(err)
		}
		vm, err := bpf.NewVM(prog)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range ipc {
			nr, ok := a.nr[name]
			if !ok {
				t.Errorf("%s: no syscall number for %s", goarch, name)
				continue
			}
			got, err := vm.Run(seccompData(a.audit, nr))
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := errnoOf(uint32(got)); !ok || e != syscall.Errno(errnoEPERM) {
				t.Errorf("%s %s (%d): action %#x, want EPERM", goarch, name, nr, uint32(got))
			}
		}
	}
}
