//go:build !unix

package search

import "io/fs"

// openNoFollow: no such flag here; readSmallFile's check that the file
// opened is the one it found (not a link) stands for it.
const openNoFollow = 0

// ownedByMe: ownership is not a file mode here; the directory's mode and
// that it is no link are checked.
func ownedByMe(fs.FileInfo) bool { return true }
