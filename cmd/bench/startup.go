package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// rusage is user and system CPU time. Of RUSAGE_CHILDREN: this process's
// children that have ended (and of theirs that those waited for),
// Terraform's and its providers' for a Terraform command. Of RUSAGE_SELF:
// this process's, where the emulator runs (and the samplers, a little).
func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startup times `terraform providers schema -json` with the provider,
// against the same command for a configuration with terraform_data only.
func (b *bench) startup(ctx context.Context) error {
	ours, err := b.workspace("schema")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ours.Dir)
	ref, err := b.workspace("schema-floor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ref.Dir)
	if err := ours.Write(b.providerBlock()); err != nil {
		return err
	}
	if err := ref.Write(`resource "terraform_data" "x" {}` + "\n"); err != nil {
		return err
	}
	const reps = 5
	var o, r []time.Duration
	for range reps {
		d, err := ours.Run(ctx, "providers", "schema", "-json")
		if err != nil {
			return err
		}
		o = append(o, d)
		d, err = ref.Run(ctx, "providers", "schema", "-json")
		if err != nil {
			return err
		}
		r = append(r, d)
	}
	fmt.Printf("| Provider start-up and schema load: `terraform providers schema -json` (median of %d) | %s | %s (terraform_data only) | +%s |\n",
		reps, secs(median(o)), secs(median(r)), secs(median(o)-median(r)))
	return nil
}

// procSampler follows a terraform process and records, for each of its
// provider children (ours or the no-op one), the largest VmHWM and the last CPU
// time seen. A provider idles at the end of a command while Terraform shuts
// it down, so the last sample misses little of its CPU.
type procSampler struct {
	mu    sync.Mutex
	peak  int                   // kB
	ticks map[int]time.Duration // CPU time per provider pid
	done  chan struct{}
}

func (s *procSampler) follow(p *os.Process) {
	s.ticks = map[int]time.Duration{}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		for {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.Pid)); err != nil {
				return
			}
			for _, child := range providerChildren(p.Pid) {
				kb, cpu := procStatus(child)
				s.mu.Lock()
				s.peak = max(s.peak, kb)
				if cpu > 0 {
					s.ticks[child] = cpu
				}
				s.mu.Unlock()
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
}

// wait returns the providers' CPU time and peak memory (kB).
func (s *procSampler) wait() (time.Duration, int) {
	if s.done == nil {
		return 0, 0
	}
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	var cpu time.Duration
	for _, d := range s.ticks {
		cpu += d
	}
	return cpu, s.peak
}

// providerComm is what the kernel keeps of "terraform-provider-<name>":
// 15 characters, the same for ours and for the no-op provider.
const providerComm = "terraform-provi"

// providerChildren lists the children of pid (from each of its threads'
// children file) that are providers.
func providerChildren(pid int) []int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var out []int
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			child, err := strconv.Atoi(field)
			if err != nil {
				continue
			}
			comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", child))
			if err == nil && strings.TrimSpace(string(comm)) == providerComm {
				out = append(out, child)
			}
		}
	}
	return out
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times: 100 on Linux.
const clockTick = 10 * time.Millisecond

// procStatus returns a process's VmHWM (kB) and user+system CPU time.
func procStatus(pid int) (int, time.Duration) {
	kb := 0
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			}
		}
	}
	var cpu time.Duration
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// pid (comm) state ppid ... utime stime: the 14th and 15th fields,
		// the 12th and 13th after the comm.
		s := string(b)
		if fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fields) > 12 {
			u, _ := strconv.Atoi(fields[11])
			st, _ := strconv.Atoi(fields[12])
			cpu = time.Duration(u+st) * clockTick
		}
	}
	return kb, cpu
}
