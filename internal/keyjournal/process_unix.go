//go:build unix

package keyjournal

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether the owner's process still runs: signal 0
// reaches it (EPERM: it exists, under another user), it is no zombie (a
// killed provider whose parent has not reaped it), and it is the same
// process, not a later one with its pid, where that can be told.
func processAlive(o Owner) bool {
	if o.PID <= 0 {
		return false
	}
	err := syscall.Kill(o.PID, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) || exited(o.PID) {
		return false
	}
	if o.ProcStart != "" {
		if now := procStart(o.PID); now != "" && now != o.ProcStart {
			return false
		}
	}
	return true
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil { //nolint:gosec // G304: the journal's own directory
		_ = d.Sync()
		_ = d.Close()
	}
}
