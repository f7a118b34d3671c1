package keyjournal

import (
	"os"
	"strconv"
	"strings"
)

// procStart is the start time of process pid, in clock ticks since boot
// (field 22 of /proc/<pid>/stat), or "" when it cannot be read. Two
// processes that share a pid in turn differ in it.
func procStart(pid int) string {
	start, _ := procStat(pid)
	return start
}

// exited reports a process that has ended but was not yet reaped by its
// parent (a zombie), which signal 0 still reaches.
func exited(pid int) bool {
	_, state := procStat(pid)
	return state == "Z" || state == "X"
}

// procStat reads the start time and state of process pid from
// /proc/<pid>/stat.
func procStat(pid int) (start, state string) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", ""
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return "", ""
	}
	return f[19], f[0]
}
