package serve

import (
	"os"
	"time"
)

// exitWithParent ends the provider once the Terraform process that started
// it is gone (killed with SIGKILL, a crashed runner). go-plugin does not
// notice, and a provider whose logs are off writes nothing to the closed
// pipe that would end it: it would run on, following a change or waiting
// for a key that nobody will record. What it was doing is recovered by the
// next run from the service (a running change, the record of a create on
// its user). Unix
// only: there a process whose parent died is given another parent; on
// Windows os.Getppid keeps the first one.
func exitWithParent(every time.Duration, exit func()) {
	parent := os.Getppid()
	if parent <= 1 {
		return // no parent to follow
	}
	go func() {
		for range time.Tick(every) {
			if os.Getppid() != parent {
				exit()
				return
			}
		}
	}()
}
