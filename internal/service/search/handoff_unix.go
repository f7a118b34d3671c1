//go:build unix

package search

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow makes opening a symbolic link fail, and opening a device or
// pipe not wait.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownedByMe reports whether this user owns the file info describes.
func ownedByMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
