//go:build !linux

package keyjournal

// procStart is not known outside Linux: a reused pid then counts as alive,
// which only delays a recovery until that process ends.
func procStart(int) string { return "" }

// exited is not known outside Linux; signal 0 decides alone.
func exited(int) bool { return false }
