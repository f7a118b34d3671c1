//go:build windows

package keyjournal

import (
	"errors"

	"golang.org/x/sys/windows"
)

// processAlive reports whether the owner's process still runs.
func processAlive(o Owner) bool {
	if o.PID <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(o.PID)) //nolint:gosec // G115: a pid fits in 32 bits on Windows
	if err != nil {
		// Gone, or not ours to query: only the former makes it stale.
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	const stillActive = 259
	return code == stillActive
}

// syncDir: Windows has no directory fsync; the rename is durable once the
// file's own data is.
func syncDir(string) {}
