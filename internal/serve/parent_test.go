package serve

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The provider ends once the process that started it is gone: a child of
// a shell that exits at once must not outlive it by more than a few polls.
func TestExitWithParent(t *testing.T) {
	if os.Getenv("EXIT_WITH_PARENT_CHILD") == "1" {
		exitWithParent(50*time.Millisecond, func() { os.Exit(3) })
		time.Sleep(30 * time.Second)
		os.Exit(0)
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sh := exec.CommandContext(ctx, "sh", "-c", os.Args[0]+" -test.run='^TestExitWithParent$' >/dev/null 2>&1 & echo $!; sleep 1")
	sh.Env = append(os.Environ(), "EXIT_WITH_PARENT_CHILD=1")
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(out))
	start := time.Now()
	for {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		// Gone, or a zombie its new parent has not reaped.
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the child %s outlived its parent by %s", pid, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the child ended %s after its parent", time.Since(start).Round(time.Millisecond))
}
