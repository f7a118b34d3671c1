// Package poll decides when to look again at a long-running operation (a
// configuration change or a dry run); it knows no service's types, the
// caller describes what it saw (Observation, FromStages). It is pure: it
// reads what the last poll saw and returns how long to wait, so it can be
// tested and benchmarked with a fake clock.
//
// The aim: report a short change done within a second of the service
// finishing it, a long one within 3% of its length, and spend few calls on
// the way. Only the end of the whole change matters, so the strategy
// estimates it from the change's own stages (ChangeProgressStages and
// TotalNumberOfStages): the length of a stage is learnt from the completed
// stages' LastUpdated timestamps, and the polls close in on the expected end
// by halving the distance, then land just after it. When there is nothing
// to estimate from (a dry run, a stage running late) the interval is a share
// of the time spent so far, which bounds the lag by that share of the
// change's length.
package poll

import (
	"time"
)

const (
	// MinInterval is the shortest regular interval: the lag bound of a
	// short change.
	MinInterval = time.Second
	// MaxInterval bounds one sleep, so a wrong estimate costs at most this.
	MaxInterval = 5 * time.Minute
	// LagShare is the share of the (estimated) length of a change that the
	// regular interval may take, under the 3% target.
	LagShare = 0.03
	// JumpShare bounds a step towards the expected end to this share of
	// the time spent so far: when the estimate is wrong (stages of unequal
	// length) the lag is at most this share of the change's length.
	JumpShare = 0.25
	// landing is how long after the expected end the landing poll comes,
	// for timestamps rounded to the millisecond and request latency.
	landing = 100 * time.Millisecond
	// floor is the shortest sleep of all.
	floor = 100 * time.Millisecond
)

// Observation is what one poll saw, every time in the service's clock.
type Observation struct {
	// Now is the time of the poll.
	Now time.Time
	// Start is when the change (or dry run) started.
	Start time.Time
	// Total is TotalNumberOfStages; 0 or 1 when there are no stages.
	Total int
	// Completed holds the lengths of the stages completed so far, in order.
	Completed []time.Duration
	// CurrentStart is when the running stage started; zero when unknown.
	CurrentStart time.Time
	// Waited is how long the waiter has waited so far, by its own clock.
	// No sleep is longer than JumpShare of it (or MinInterval), so a
	// service clock that is off, or runs at another pace (an emulator sped
	// up), cannot stretch a wait.
	Waited time.Duration
}

// Next returns how long to wait before the next poll.
func Next(o Observation) time.Duration {
	elapsed := max(o.Now.Sub(o.Start), 0)
	remaining := o.remaining(elapsed)
	total := elapsed + remaining
	base := max(MinInterval, time.Duration(LagShare*float64(total)))
	var d time.Duration
	switch {
	case remaining <= 0:
		// Nothing known ahead, or the change is late: look again after a
		// share of its length so far.
		d = base
	case remaining <= base || remaining <= time.Duration(JumpShare*float64(elapsed)) && remaining <= 2*base:
		// Land just after the expected end.
		d = remaining + landing
	default:
		// Far from the end: halve the distance to it, by a step bounded
		// by the time spent so far.
		d = max(base, min(remaining/2, time.Duration(JumpShare*float64(elapsed))))
	}
	d = min(d, max(MinInterval, time.Duration(JumpShare*float64(o.Waited))))
	return min(max(d, floor), MaxInterval)
}

// remaining estimates the time left until the change ends; 0 when unknown
// or overdue.
func (o Observation) remaining(elapsed time.Duration) time.Duration {
	if o.Total <= 1 && len(o.Completed) == 0 {
		return 0
	}
	if len(o.Completed) == 0 {
		// The first stage has run for elapsed and is not done: taking the
		// stages as alike, each lasts at least that long. Only half of the
		// guess is trusted, since stages differ.
		return time.Duration(o.Total-1) * elapsed / 2
	}
	var sum time.Duration
	for _, c := range o.Completed {
		sum += c
	}
	stage := sum / time.Duration(len(o.Completed))
	curStart := o.CurrentStart
	if curStart.IsZero() {
		curStart = o.Start.Add(sum)
	}
	inStage := max(o.Now.Sub(curStart), 0)
	left := o.Total - len(o.Completed) - 1 // stages after the running one
	if left < 0 {
		return 0
	}
	cur := stage - inStage
	if cur < 0 {
		// The running stage is late: nothing to go on for it.
		return 0
	}
	return cur + time.Duration(left)*stage
}

// Stage is one stage of a change as the service reports it, in order.
type Stage struct {
	// Completed and Running are its status; neither for a stage not
	// started.
	Completed, Running bool
	// LastUpdated is when its status last changed; zero when the service
	// gives no time, which counts as not started.
	LastUpdated time.Time
}

// FromStages turns a change's progress seen at now into an Observation:
// its start (zero when unknown: now), its total number of stages and the
// stages reported so far.
func FromStages(now, start time.Time, total int, stages []Stage) Observation {
	o := Observation{Now: now, Start: now, Total: total}
	if !start.IsZero() {
		o.Start = start
	}
	prev := o.Start
	for _, s := range stages {
		if s.LastUpdated.IsZero() || !s.Completed {
			if s.Running && !s.LastUpdated.IsZero() {
				o.CurrentStart = s.LastUpdated
			}
			break
		}
		o.Completed = append(o.Completed, max(s.LastUpdated.Sub(prev), 0))
		prev = s.LastUpdated
	}
	o.Total = max(o.Total, len(stages))
	return o
}
